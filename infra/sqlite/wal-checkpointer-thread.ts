import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './open-database';

/** What the service tells the checkpointer's thread (it ends once its connection is closed), and what the thread tells it. */
export type CheckpointerRequest = { op: 'close' };
export type CheckpointerReply = { op: 'checkpointed' } & WalState;
/** Frames in the WAL, and how many of them are copied into the database file. */
export type WalState = { log: number; checkpointed: number };

/**
 * The WAL checkpointer's thread (`wal-checkpointer.ts`): its own connection to the service's file,
 * a PASSIVE checkpoint every `intervalMs` (it never waits for or blocks a writer or a reader; frames
 * a reader still needs are left for the next one).
 */
const port = parentPort!;
const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = openDatabase(file);
let last: WalState = { log: 0, checkpointed: 0 };
const timer = setInterval(() => {
  const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)') as [WalState];
  if (log !== last.log || checkpointed !== last.checkpointed) port.postMessage({ op: 'checkpointed', log, checkpointed } satisfies CheckpointerReply);
  last = { log, checkpointed };
}, intervalMs);
port.on('message', (request: CheckpointerRequest) => {
  if (request.op !== 'close') return;
  clearInterval(timer);
  db.close();
  port.close();
});
