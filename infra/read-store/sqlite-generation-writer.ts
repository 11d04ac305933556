import { MessageChannel, MessagePort, Worker } from 'node:worker_threads';
import { compiledScript } from '../threads/compiled-script';
import { packWrites } from './packed-writes';
import type { GenerationWriter } from './port';
import type { WriterReply, WriterRequest } from './sqlite-writer-messages';

type Waiting = { resolve: () => void; reject: (error: Error) => void };
type Request = WriterRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** Requests to the writer's thread over `endpoint`, each answered there by its id; `fail` rejects every one waiting and every later one. */
const requester = (endpoint: Worker | MessagePort) => {
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let failure: Error | null = null;
  endpoint.on('message', ({ id, error }: WriterReply) => {
    const request = waiting.get(id);
    waiting.delete(id);
    if (error === null) request?.resolve();
    else request?.reject(new Error(error));
  });
  const fail = (error: Error) => {
    failure ??= error;
    for (const request of waiting.values()) request.reject(failure);
    waiting.clear();
  };
  // A port closes when either end does (the writer's thread gone): nothing waits for an answer that cannot come.
  if (endpoint instanceof MessagePort) endpoint.once('close', () => fail(new Error("the generation writer's port closed")));
  return {
    send: (request: Request, transfer: MessagePort[] = []): Promise<void> => {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        endpoint.postMessage({ ...request, id }, transfer);
      });
    },
    fail,
    failure: () => failure,
    waiting: () => waiting.size,
    nextId: () => next++,
  };
};

/** A writer whose requests go to a generation writer's thread through a port `attach` handed it (another thread's, a rebuild's partition). */
export const portGenerationWriter = (port: MessagePort): GenerationWriter => {
  const { send } = requester(port);
  return {
    commit: (writes, checkpoints = []) => send({ op: 'commit', writes: packWrites(writes), checkpoints }),
    drop: (collections) => send({ op: 'drop', collections }),
    close: () => {
      port.close();
      return Promise.resolve();
    },
  };
};

/**
 * A generation writer on a thread of its own (`sqlite-writer-thread.ts`), with its own connection
 * to `file`: the SQLite work of a rebuild (the inserts with their indexes, the commits and fsyncs,
 * the retired generation's drop) runs beside the caller's loop instead of on it. Requests are
 * applied in the order sent; each promise resolves once its request is committed. A failure of the thread rejects every request
 * waiting and every later one. `attach` gives a port other threads write through (see
 * `portGenerationWriter`), in the same order of arrival.
 */
export const threadGenerationWriter = (file: string): GenerationWriter & { attach(): Promise<MessagePort> } => {
  const worker = new Worker(compiledScript(__filename, 'sqlite-writer-thread'), { workerData: { file } });
  const requests = requester(worker);
  let closing = false;
  worker.on('error', requests.fail);
  worker.on('exit', (code) => {
    if (!closing || requests.waiting() > 0) requests.fail(new Error(`the generation writer's thread exited with code ${code}`));
  });
  return {
    commit: (writes, checkpoints = []) => requests.send({ op: 'commit', writes: packWrites(writes), checkpoints }),
    drop: (collections) => requests.send({ op: 'drop', collections }),
    attach: async () => {
      const { port1, port2 } = new MessageChannel();
      await requests.send({ op: 'attach', port: port2 }, [port2]);
      return port1;
    },
    close: () => {
      if (closing) return Promise.resolve();
      closing = true;
      if (requests.failure()) return worker.terminate().then(() => undefined);
      return new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage({ op: 'close', id: requests.nextId() } satisfies WriterRequest);
      });
    },
  };
};
