import type { StoredEvent } from '../../infra/event-store/port';
import type { GenerationWriter, ReadStore } from '../../infra/read-store/port';
import { applyBatch } from './apply-batch';
import { type BatchSource, batchContext, storeSource } from './batch-context';
import type { Projection } from './projection';

/** The events after a position, and the position they take the replay to (past events skipped unread, if any). */
export type ReplayRead = (after: bigint) => Promise<{ events: readonly StoredEvent[]; reached: bigint }>;

export type GenerationReplayOptions = Readonly<{
  read: ReplayRead;
  /** Where the projections read the generation they build (their own collections, renamed to it). */
  view: Pick<ReadStore, 'get'> & Partial<Pick<ReadStore, 'findAll'>>;
  /** Where its documents are written: committed beside the replay, in order. */
  writer: GenerationWriter;
  projections: readonly Projection[];
  /** Their checkpoints in the generation, committed with each flush's last transaction. */
  checkpoints: readonly string[];
  indexed: ReadonlyMap<string, readonly string[]>;
  /** A flush once the context holds this many documents' writes, in transactions of `commitSize`. */
  flushDocuments: number;
  commitSize: number;
  from: bigint;
}>;

export type GenerationReplay = {
  /** Applies the next events; how many it read (0: none left). */
  step(): Promise<number>;
  /** Where the replay has got to. */
  position(): bigint;
  /** Everything applied so far committed. */
  flushed(): Promise<void>;
};

/**
 * Flushes the writer may hold at once: the replay goes on while the one before the last commits
 * (with one, the replay waited for every commit: 0.2–0.4 s of a 201,001-event rebuild).
 */
const FLUSHES_IN_FLIGHT = 2;

/**
 * Replays the log into a generation nothing reads yet. One context across many reads: a document
 * written often is written once per flush, and a flush's writes go in id order into tables without
 * indexes. A rebuild begins by emptying the generation, so its writes need no commit per batch: a
 * crash part-way leaves the live generation serving. The writer commits beside the replay (SQLite:
 * on a thread of its own); the next context reads through the ones being committed until their
 * commits have resolved.
 */
export const generationReplay = (options: GenerationReplayOptions): GenerationReplay => {
  const { read, writer, indexed } = options;
  const view = storeSource(options.view);
  const targets = options.projections.map((projection) => ({ projection, after: 0n }));
  let position = options.from;
  /** Flushes handed to the writer and not yet committed, oldest first. */
  const committing: Promise<void>[] = [];
  let context = batchContext(view, indexed);
  /** Hands what the context holds to the writer, with the checkpoints at the position it has applied. */
  const flush = async (): Promise<void> => {
    while (committing.length >= FLUSHES_IN_FLIGHT) await committing.shift();
    const flushed = context;
    let readFrom: BatchSource = flushed;
    context = batchContext({ get: (collection, id) => readFrom.get(collection, id), ...(view.findWhere ? { findWhere: (collection, field, eq) => readFrom.findWhere!(collection, field, eq) } : {}) }, indexed);
    const writes = flushed.writes();
    const checkpoints = options.checkpoints.map((name) => ({ name, position }));
    // In transactions of a bounded size: each one holds the database's write lock briefly.
    const commits: Promise<void>[] = [];
    for (let from = 0; ; from += options.commitSize) {
      const to = from + options.commitSize;
      // The checkpoints with the last of them.
      commits.push(writer.commit(writes.slice(from, to), to >= writes.length ? checkpoints : []));
      if (to >= writes.length) break;
    }
    // Read from the view once every flush up to this one is in it, whatever order a writer lands them in.
    const committed = Promise.all([committing.at(-1), ...commits]).then(() => {
      readFrom = view;
    });
    // Not left unhandled while the replay goes on; a later flush (or the last) awaits it.
    committed.catch(() => undefined);
    committing.push(committed);
  };
  return {
    step: async () => {
      const { events, reached } = await read(position);
      if (events.length > 0) await applyBatch(targets, events, context);
      position = reached;
      if (context.held() >= options.flushDocuments) await flush();
      return events.length;
    },
    position: () => position,
    flushed: async () => {
      await flush();
      await Promise.all(committing.splice(0));
    },
  };
};
