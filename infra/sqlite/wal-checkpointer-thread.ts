import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './open-database';
import type { CheckpointerReply, CheckpointerRequest, WalState } from './wal-checkpointer';

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
