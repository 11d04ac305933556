import { Worker } from 'node:worker_threads';
import { compiledScript } from '../threads/compiled-script';
import type { SqliteDatabase } from './open-database';

/** How often the thread checkpoints: about what a busy service writes between SQLite's default checkpoints (1,000 pages). */
const INTERVAL_MS = 100;

/** The service's connection still checkpoints past this many WAL pages (about 40 MB), should the thread fall behind or stop. */
const BACKSTOP_PAGES = 10_000;

/** What the service tells the checkpointer's thread (it ends once its connection is closed), and what the thread tells it. */
export type CheckpointerRequest = { op: 'close' };
export type CheckpointerReply = { op: 'checkpointed' } & WalState;
/** Frames in the WAL, and how many of them are copied into the database file. */
export type WalState = { log: number; checkpointed: number };

export type WalCheckpointer = Readonly<{
  /** The WAL as its latest checkpoint that changed anything left it (null before the first). */
  lastCheckpoint(): WalState | null;
  close(): Promise<void>;
}>;

/**
 * Copies the WAL back into the database file on a thread of its own. SQLite otherwise checkpoints
 * in the connection whose COMMIT takes the WAL past 1,000 pages: the service's, on its event loop,
 * copying pages and fsyncing the database file while requests wait (a batch of usage events with
 * random ids dirties a page per id). Durability is untouched: a transaction is durable once its
 * WAL frames are fsynced, before any checkpoint.
 */
export const startWalCheckpointer = (db: SqliteDatabase, onFailure: (error: Error) => void, intervalMs = INTERVAL_MS): WalCheckpointer => {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(compiledScript(__filename, 'wal-checkpointer-thread'), { workerData: { file: db.name, intervalMs } });
  worker.unref();
  let last: WalState | null = null;
  let running = true;
  worker.on('message', ({ log, checkpointed }: CheckpointerReply) => (last = { log, checkpointed }));
  // The service's connection checkpoints again as SQLite does by default.
  worker.on('error', (error: unknown) => {
    db.pragma('wal_autocheckpoint = 1000');
    // An SQLite error reaches this thread as a plain object (its class does not cross threads).
    onFailure(error instanceof Error ? error : new Error(`the WAL checkpointer's thread failed: ${JSON.stringify(error)}`));
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => (running = false));
  return {
    lastCheckpoint: () => last,
    close: async () => {
      if (running) {
        // Referenced again: a process with nothing else left would otherwise end before the thread answers.
        worker.ref();
        worker.postMessage({ op: 'close' } satisfies CheckpointerRequest);
      }
      await exited;
    },
  };
};
