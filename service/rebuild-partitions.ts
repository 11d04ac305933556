import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SqliteEventStore } from '../infra/event-store/sqlite';
import { compiledScript } from '../infra/threads/compiled-script';
import type { PartitionProgress, RebuildPartitions } from '../projections/engine/rebuild-partitions';
import type { PartitionData, PartitionMessage } from './rebuild-partition-messages';

/** Events sampled to weigh the read models: a thousand row lookups, a few milliseconds. */
const SAMPLE = 1000;

/**
 * A rebuild split by read model across threads on the embedded store (`rebuild-partition-thread.ts`):
 * each reads the log's events of its read models' types only, so the others' rows are
 * skipped unread, and all of them write through the generation writer's one connection (two
 * connections writing the same file would queue on its write lock and reset each other's page cache).
 */
export const sqliteRebuildPartitions = (store: SqliteEventStore, file: string, options: { threads?: number; fromEvents?: number } = {}): RebuildPartitions => ({
  // Measured on 2 cores, two threads cost a third more CPU than the loop alone (each thread's heap
  // and modules, the skipped rows) for no gain: a split needs a core to spare for the writer.
  threads: options.threads ?? availableParallelism() - 1,
  fromEvents: options.fromEvents ?? 20_000,
  typeShares: (upTo) => {
    const sample = store.sampleTypes(upTo, SAMPLE);
    const total = sample.reduce((sum, { bytes }) => sum + bytes, 0);
    const shares = new Map<string, number>();
    for (const { type, bytes } of sample) shares.set(type, (shares.get(type) ?? 0) + bytes / Math.max(total, 1));
    return Promise.resolve(shares);
  },
  replay: async ({ groups, upTo, writer, sizes, onProgress, stopped }) => {
    if (!writer.attach) throw new Error('a partitioned rebuild needs a generation writer other threads can write through');
    const ports = await Promise.all(groups.map(() => writer.attach!()));
    const workers = groups.map(
      (group, i) =>
        new Worker(compiledScript(__filename, 'rebuild-partition-thread'), {
          workerData: { file, group, upTo, sizes, port: ports[i]! } satisfies PartitionData,
          transferList: [ports[i]!],
        }),
    );
    const reached: PartitionProgress[] = groups.map(() => ({ position: 0n, events: 0 }));
    try {
      const done = await Promise.all(
        workers.map(
          (worker, i) =>
            new Promise<number>((resolve, reject) => {
              worker.on('message', (message: PartitionMessage) => {
                if (stopped()) {
                  reject(new Error('the service stopped before the rebuild switched'));
                  return;
                }
                reached[i] = message;
                if (message.op === 'done') resolve(message.events);
                // The partition furthest behind is how far the rebuild has got.
                onProgress(reached.reduce((least, progress) => (progress.position < least.position ? progress : least)));
              });
              worker.on('error', reject);
              worker.on('exit', (code) => reject(new Error(`a rebuild partition's thread exited with code ${code} before it was done`)));
            }),
        ),
      );
      return done[0]!;
    } finally {
      // Ended whatever happened: on a failure the others' work is thrown away with the generation.
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  },
});
