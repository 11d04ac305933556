import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../sqlite/open-database';
import { unpackWrites } from './packed-writes';
import { SqliteReadStore } from './sqlite';
import type { WriterReply, WriterRequest } from './sqlite-writer-messages';

/**
 * A generation writer's thread (started by `SqliteReadStore.generationWriter`): its own connection
 * to the service's file (WAL and synchronous=FULL like every other), applying the requests one at
 * a time, in the order they arrive, from the service and from every port attached to it (a
 * rebuild's partitions: one connection writes them all, so no two queue on the write lock). On
 * `close` from the service the connection is closed and the thread ends.
 */
const db = openDatabase((workerData as { file: string }).file);
const store = new SqliteReadStore(db);
let queue = Promise.resolve();
const attached = new Set<MessagePort>();
const serve = (port: MessagePort) =>
  port.on('message', (request: WriterRequest) => {
    queue = queue.then(async () => {
      let error: string | null = null;
      try {
        if (request.op === 'commit') await store.commit(unpackWrites(request.writes), request.checkpoints);
        else if (request.op === 'drop') await store.drop(request.collections);
        else if (request.op === 'attach') attached.add(serve(request.port));
        else {
          db.close();
          for (const other of attached) other.close();
          parentPort!.close();
        }
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
      if (request.op !== 'close') port.postMessage({ id: request.id, error } satisfies WriterReply);
    });
  });
serve(parentPort!);
