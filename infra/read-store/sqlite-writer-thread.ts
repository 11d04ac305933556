import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../sqlite/open-database';
import { type PackedWrites, unpackWrites } from './packed-writes';
import type { Checkpoint, IndexSpec } from './port';
import { SqliteReadStore } from './sqlite';

/** What the service asks the generation writer's thread, and its answer to each (`error` null: done). */
export type WriterRequest =
  | { id: number; op: 'commit'; writes: PackedWrites; checkpoints: readonly Checkpoint[] }
  | { id: number; op: 'ensureIndexes'; indexes: readonly IndexSpec[] }
  | { id: number; op: 'close' };
export type WriterReply = { id: number; error: string | null };

/**
 * A generation writer's thread (started by `SqliteReadStore.generationWriter`): its own connection
 * to the service's file (WAL and synchronous=FULL like every other), applying the requests one at
 * a time, in the order sent. On `close` the connection is closed and the thread ends.
 */
const port = parentPort!;
const db = openDatabase((workerData as { file: string }).file);
const store = new SqliteReadStore(db);
let queue = Promise.resolve();
port.on('message', (request: WriterRequest) => {
  queue = queue.then(async () => {
    let error: string | null = null;
    try {
      if (request.op === 'commit') await store.commit(unpackWrites(request.writes), request.checkpoints);
      else if (request.op === 'ensureIndexes') await store.ensureIndexes(request.indexes);
      else {
        db.close();
        port.close();
      }
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    if (request.op !== 'close') port.postMessage({ id: request.id, error } satisfies WriterReply);
  });
});
