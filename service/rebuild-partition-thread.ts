import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { portGenerationWriter } from '../infra/read-store/sqlite-generation-writer';
import { SqliteReadStore } from '../infra/read-store/sqlite';
import { openDatabase } from '../infra/sqlite/open-database';
import { allProjections } from '../projections/read-models/all';
import { indexedFields } from '../projections/engine/apply-batch';
import { generationReplay } from '../projections/engine/generation-replay';
import { GenerationView } from '../projections/engine/generations';
import type { PartitionData, PartitionMessage } from './rebuild-partition-messages';

/**
 * One partition of a rebuild (started by `sqliteRebuildPartitions`): its own connection to the
 * file, reading only the events its read models handle up to `upTo`, and writing their generation
 * through the port the generation writer's thread gave it. Tells the service how far it has got
 * (with the log's events up to there, counted in SQL: the rows it skips are never read).
 */
const { file, group, upTo, sizes, port } = workerData as PartitionData;
const post = (message: PartitionMessage) => parentPort!.postMessage(message);
const db = openDatabase(file);
const store = new SqliteEventStore(db);
const projections = group.map((build) => {
  const projection = allProjections.find((candidate) => candidate.name === build.projection);
  if (!projection) throw new Error(`no read model named ${build.projection}`);
  return projection;
});
const names = new Map(group.flatMap((build) => build.names));
const view = new GenerationView(new SqliteReadStore(db), (collection) => names.get(collection) ?? collection);
const writer = view.writerFor(portGenerationWriter(port));
const types = [...new Set(projections.flatMap((projection) => projection.handles))];
let events = 0;
const replay = generationReplay({
  read: (after) => {
    const read = store.readTypes(after, upTo, types, sizes.batch);
    const reached = read.length === sizes.batch ? read[read.length - 1]!.position : upTo;
    events += store.countBetween(after, reached);
    return Promise.resolve({ events: read, reached });
  },
  view,
  writer,
  projections,
  checkpoints: group.map((build) => build.checkpoint),
  indexed: indexedFields(projections),
  flushDocuments: sizes.flushDocuments,
  commitSize: sizes.commitSize,
  from: 0n,
});
void (async () => {
  while ((await replay.step()) > 0) post({ op: 'progress', position: replay.position(), events });
  await replay.flushed();
  await writer.close();
  db.close();
  post({ op: 'done', position: upTo, events });
})();
