import { Worker } from 'node:worker_threads';
import { compiledScript } from '../infra/threads/compiled-script';
import type { DemoServerOptions } from './start';
import type { ThreadMessage } from './thread';

/**
 * Starts the demonstration accounting server on a worker thread of this process: a separate
 * system the service reaches over HTTP, whose Express handling and ledger commits (fsyncs) run on
 * its own event loop, not the service's. Same URL handling, control routes and file as
 * `startDemoAccountingServer`; `close()` resolves once its last group is committed and the thread
 * has ended. A failure of the thread after it started ends the process, as it did when the server
 * shared the service's loop.
 */
export const startDemoAccountingThread = async (options: DemoServerOptions) => {
  const worker = new Worker(compiledScript(__filename, 'thread'), { workerData: options });
  const url = await new Promise<string>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    const exited = (code: number) => reject(new Error(`The demonstration accounting thread exited with code ${code} before it listened.`));
    worker.once('error', failed);
    worker.once('exit', exited);
    worker.once('message', (message: ThreadMessage) => {
      worker.off('error', failed);
      worker.off('exit', exited);
      if (message.type === 'ready') resolve(message.url);
      else reject(new Error(`The demonstration accounting thread answered ${message.type} before it listened.`));
    });
  });
  // Once closing, a failure rejects close() instead.
  let failClose: ((error: Error) => void) | null = null;
  worker.on('error', (error) => {
    if (!failClose) throw error;
    failClose(error);
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        failClose = reject;
        worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The demonstration accounting thread exited with code ${code}.`))));
        worker.postMessage({ type: 'close' } satisfies ThreadMessage);
      }),
  };
};
