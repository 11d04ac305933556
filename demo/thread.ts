import { parentPort, workerData } from 'node:worker_threads';
import { type DemoServerOptions, startDemoAccountingServer } from './start';

/** A message between the service and the demonstration accounting system's thread. */
export type ThreadMessage = { type: 'ready'; url: string } | { type: 'close' };

/**
 * The demonstration accounting system's thread (started by `start-thread.ts`): its own event loop,
 * its own SQLite connection and group commit. It closes on the service's `close` message: the
 * server stops taking connections, the open group is committed, the file closed; then the thread
 * ends, with nothing left on its loop.
 */
const port = parentPort!;
void startDemoAccountingServer(workerData as DemoServerOptions).then((server) => {
  const onMessage = (message: ThreadMessage) => {
    if (message.type !== 'close') return;
    port.off('message', onMessage);
    void server.close();
  };
  port.on('message', onMessage);
  port.postMessage({ type: 'ready', url: server.url } satisfies ThreadMessage);
});
