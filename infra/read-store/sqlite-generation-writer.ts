import { Worker } from 'node:worker_threads';
import { compiledScript } from '../threads/compiled-script';
import { packWrites } from './packed-writes';
import type { GenerationWriter } from './port';
import type { WriterReply, WriterRequest } from './sqlite-writer-messages';

type Waiting = { resolve: () => void; reject: (error: Error) => void };
type Request = WriterRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/**
 * A generation writer on a thread of its own (`sqlite-writer-thread.ts`), with its own connection
 * to `file`: the SQLite work of a rebuild (the inserts, their commits and fsyncs, the index builds)
 * runs beside the caller's loop instead of on it. Requests are applied in the order sent; each
 * promise resolves once its request is committed. A failure of the thread rejects every request
 * waiting and every later one.
 */
export const threadGenerationWriter = (file: string): GenerationWriter => {
  const worker = new Worker(compiledScript(__filename, 'sqlite-writer-thread'), { workerData: { file } });
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let failure: Error | null = null;
  let closing = false;
  const fail = (error: Error) => {
    failure ??= error;
    for (const request of waiting.values()) request.reject(failure);
    waiting.clear();
  };
  worker.on('message', ({ id, error }: WriterReply) => {
    const request = waiting.get(id);
    waiting.delete(id);
    if (error === null) request?.resolve();
    else request?.reject(new Error(error));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!closing || waiting.size > 0) fail(new Error(`the generation writer's thread exited with code ${code}`));
  });
  const send = (request: Request): Promise<void> => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    return new Promise<void>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };
  return {
    commit: (writes, checkpoints = []) => send({ op: 'commit', writes: packWrites(writes), checkpoints }),
    ensureIndexes: (indexes) => send({ op: 'ensureIndexes', indexes }),
    close: () => {
      if (closing) return Promise.resolve();
      closing = true;
      if (failure) return worker.terminate().then(() => undefined);
      return new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage({ op: 'close', id: next++ } satisfies WriterRequest);
      });
    },
  };
};
