import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { coalescedRuns } from '../../infra/coalesced-runs';
import type { EventStore } from '../../infra/event-store/port';
import { semaphore } from '../../infra/event-store/semaphore';
import type { Logger } from '../../infra/logger';
import { deleteInSteps } from '../../infra/read-store/delete-in-steps';
import { generationName } from '../../infra/read-store/names';
import type { Doc, ReadStore, Write } from '../../infra/read-store/port';
import { applyBatch, indexedFields } from './apply-batch';
import { batchContext, storeSource } from './batch-context';
import { generationReplay } from './generation-replay';
import {
  checkpointName,
  type Generation,
  type GenerationDoc,
  generationIndexes,
  generationNames,
  GENERATIONS,
  GenerationView,
} from './generations';
import type { Projection } from './projection';
import { partitionByWork, type RebuildPartitions } from './rebuild-partitions';

export type RunnerOptions = Readonly<{
  batchSize?: number;
  /** Events a rebuild reads at a time (and an offline replay commits at a time). */
  rebuildBatchSize?: number;
  /** A rebuild commits what it holds once it holds this many documents' writes (and at the end). */
  rebuildFlushDocuments?: number;
  /** Documents per transaction when a rebuild commits. */
  rebuildCommitSize?: number;
  pollMs?: number;
  /** Where a rebuild may replay split by read model across threads (SQLite); without it, on this loop. */
  partitions?: RebuildPartitions;
}>;
export type Progress = Readonly<{ position: bigint; head: bigint; events: number }>;

/** One projection as the runner keeps it: the generation reads are served from, and how far it has applied the log. */
type Slot = { projection: Projection; live: Generation; checkpoint: bigint };

export type ProjectionStatus = Readonly<{
  name: string;
  version: number;
  checkpoint: bigint;
  head: bigint;
  lag: bigint;
  status: 'live' | 'rebuilding';
}>;

/** A document on which the new generation and the live one differ, as `--verify` reports it. */
export type Difference = Readonly<{ projection: string; collection: string; id: string; difference: 'only_live' | 'only_new' | 'changed' }>;

export type RebuildStatus = {
  status: 'running' | 'switched' | 'failed';
  projections: string[];
  verify: boolean;
  events: number;
  position: bigint;
  head: bigint;
  eventsPerSecond: number;
  /** Seconds left at the rate so far; null until there is a rate. */
  etaSeconds: number | null;
  /** With `verify`: what differed when both generations stood at the same position (empty: none). */
  differences: Difference[] | null;
  error: string | null;
};

export class RebuildRunning extends Error {
  override name = 'RebuildRunning';
}

type Waiter = { position: bigint; resolve: (reached: boolean) => void };

/** Records which generation of a projection serves reads, and the version that built it. */
const pointerWrite = (name: string, generation: Generation): Write => {
  const doc: GenerationDoc = { id: name, ...generation };
  return { op: 'put', collection: GENERATIONS, doc };
};

/** Documents compared a page at a time (`--verify`): the loop turns between pages, and a page of each generation is held. */
const COMPARED_PAGE = 1_000;

/** Every document of a collection in id order, read a page at a time, the loop turning before each page. */
async function* inIdOrder(store: ReadStore, collection: string): AsyncGenerator<Doc> {
  for (let after: string | undefined; ; ) {
    await nextTurn();
    const page = await store.findAll(collection, undefined, { ...(after === undefined ? {} : { after }), limit: COMPARED_PAGE });
    yield* page;
    if (page.length < COMPARED_PAGE) return;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Whether id `a` sorts before `b` as the stores sort ids (SQLite's BINARY, MongoDB's simple
 * collation: UTF-8 bytes, so code points), where JavaScript's `<` compares UTF-16 units and puts an
 * astral character before U+E000–U+FFFF.
 */
const sortsBefore = (a: string, b: string): boolean => {
  for (let i = 0; i < a.length && i < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y;
    i += x > 0xffff ? 2 : 1;
  }
  return a.length < b.length;
};

const nextOf = async (documents: AsyncGenerator<Doc>): Promise<Doc | null> => {
  const next = await documents.next();
  return next.done ? null : next.value;
};

/**
 * Follows the log and keeps every read model up to date. Each projection commits its documents
 * together with its checkpoint, so a crash between batches replays at most the unfinished batch.
 * A blue/green rebuild writes a new generation of chosen read models beside the live one, catches
 * up, and switches reads to it atomically; the live generation serves (and follows the log) until then.
 */
export class ProjectionRunner {
  private readonly slots: Slot[];
  /** Per collection, the fields its indexes name: a batch hands their values to the store with each document. */
  private readonly indexed: ReadonlyMap<string, readonly string[]>;
  /** Where each collection's live generation lives; the API's view resolves through it. */
  private readonly live = new Map<string, string>();
  /** The API's read store: the live generation of every read model. */
  readonly readStore: ReadStore;
  private readonly waiters = new Set<Waiter>();
  /** Applying a batch to the live generations, and switching a generation, never overlap. */
  private readonly exclusive = semaphore(1);
  private readonly runs = coalescedRuns(
    (onProgress?: (progress: Progress) => void) => this.exclusive(() => this.drain(onProgress)),
    (error) => this.logger.error({ err: error }, 'projection run failed; retrying on the next append or poll'),
    () => this.stopped,
  );
  private stopped = false;
  private catchUpScheduled = false;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private rebuilding: Promise<RebuildStatus> | null = null;
  private lastRebuild: RebuildStatus | null = null;
  private readonly batchSize: number;
  /** A rebuild reads the log in larger batches than the live drain; it commits by `rebuildFlushDocuments`. */
  private readonly rebuildBatchSize: number;
  private readonly rebuildFlushDocuments: number;
  private readonly rebuildCommitSize: number;
  private readonly pollMs: number;
  private readonly partitions: RebuildPartitions | null;
  /** Whether this process applies the log (holds the projections lease); otherwise it follows the checkpoints another writes. */
  private applying: () => boolean = () => true;

  constructor(
    private readonly store: EventStore,
    private readonly raw: ReadStore,
    readonly projections: readonly Projection[],
    private readonly logger: Logger,
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    // Small on purpose: what a batch holds (its events, the documents not yet flushed) is what each
    // young-generation collection copies (a 201,001-event rebuild: about 7 % less CPU than at 2,000
    // and 5,000).
    this.rebuildBatchSize = options.rebuildBatchSize ?? 250;
    this.rebuildFlushDocuments = options.rebuildFlushDocuments ?? 1000;
    this.rebuildCommitSize = options.rebuildCommitSize ?? 5000;
    this.pollMs = options.pollMs ?? 1000;
    this.partitions = options.partitions ?? null;
    // A retired collection is dropped at every start: never one a read model still writes.
    const written = new Set(projections.flatMap((projection) => projection.collections));
    const stillWritten = projections.flatMap((projection) => projection.retired ?? []).filter((collection) => written.has(collection));
    if (stillWritten.length > 0) throw new Error(`retired collections still written by a projection: ${stillWritten.join(', ')}`);
    this.slots = projections.map((projection) => ({ projection, live: { generation: 0, version: projection.version }, checkpoint: 0n }));
    this.readStore = new GenerationView(raw, (collection) => this.live.get(collection) ?? collection);
    this.indexed = indexedFields(projections);
  }

  /** Loads each projection's live generation and checkpoint; one without a checkpoint starts from an empty read model. */
  async init(): Promise<void> {
    for (const slot of this.slots) {
      const { name } = slot.projection;
      const pointer = await this.raw.get<GenerationDoc>(GENERATIONS, name);
      this.setLive(slot, pointer ? { generation: pointer.generation, version: pointer.version } : slot.live);
      await this.raw.ensureIndexes(generationIndexes(slot.projection, slot.live.generation));
      slot.checkpoint = await this.raw.checkpoint(checkpointName(name, slot.live));
      if (slot.checkpoint === 0n) await this.raw.reset([...generationNames(slot.projection, slot.live.generation).values()], []);
      if (!pointer) await this.raw.commit([pointerWrite(name, slot.live)]);
      await this.dropLeftovers(slot);
    }
    for (const { projection } of this.slots) await projection.resume?.(this.readStore);
  }

  /**
   * What would otherwise stay on disk for good: what the projection no longer writes, of every
   * generation up to the one after the live one (an interrupted rebuild's), and its collections of
   * the generations before the live one (a switch drops them; a directory from before that emptied them).
   */
  private async dropLeftovers({ projection, live }: Slot): Promise<void> {
    const upTo = (count: number) => Array.from({ length: count }, (_, generation) => generation);
    const leftovers = [
      ...(projection.retired ?? []).flatMap((collection) => upTo(live.generation + 2).map((generation) => generationName(collection, generation))),
      ...upTo(live.generation).flatMap((generation) => [...generationNames(projection, generation).values()]),
    ];
    if (leftovers.length > 0) await this.raw.drop(leftovers);
  }

  /**
   * Follows the log from the checkpoints. A projection whose version changed keeps serving (and
   * following the log into) its old generation while its new one is rebuilt beside it.
   */
  async start(): Promise<void> {
    await this.init();
    this.unsubscribe = this.store.onAppended(() => this.catchUpThisTurn());
    // Polling catches appends made by other processes.
    this.timer = setInterval(() => void this.catchUp(), this.pollMs);
    this.timer.unref();
    await this.catchUp();
    const changed = this.slots.filter((slot) => slot.live.version !== slot.projection.version).map((slot) => slot.projection.name);
    if (changed.length > 0 && this.applying()) {
      this.logger.info({ projections: changed }, 'projection versions changed: rebuilding them beside the live generation');
      this.startRebuild(changed, { verify: false });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.runs.current();
    await this.rebuilding;
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters.clear();
  }

  /** The lowest position every live read model has applied (a generation being rebuilt does not count). */
  position(): bigint {
    let lowest: bigint | null = null;
    for (const { checkpoint } of this.slots) if (lowest === null || checkpoint < lowest) lowest = checkpoint;
    return lowest ?? 0n;
  }

  /** Resolves true once every read model includes `position`, false after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs = 5000): Promise<boolean> {
    if (this.position() >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
      this.catchUpThisTurn();
    });
  }

  /** Each projection's live version, checkpoint, the log's head, the lag, and whether a new generation is being built. */
  async status(): Promise<ProjectionStatus[]> {
    const head = await this.store.headPosition();
    const rebuilding = this.lastRebuild?.status === 'running' ? this.lastRebuild.projections : [];
    return this.slots.map((slot) => ({
      name: slot.projection.name,
      version: slot.live.version,
      checkpoint: slot.checkpoint,
      head,
      lag: head > slot.checkpoint ? head - slot.checkpoint : 0n,
      status: rebuilding.includes(slot.projection.name) ? 'rebuilding' : 'live',
    }));
  }

  /**
   * Each projection's lag in events: how many the log holds past its checkpoint, counted where the
   * store can, else read (a position is an offset in EventStoreDB's log, not a count), up to `atMost`.
   */
  async lagEvents(atMost: number): Promise<{ name: string; events: number }[]> {
    const head = await this.store.headPosition();
    const behind = new Map<bigint, Promise<number>>();
    const count = async (checkpoint: bigint): Promise<number> => {
      if (checkpoint >= head) return 0;
      if (this.store.countBetween) return this.store.countBetween(checkpoint, head);
      return (await this.store.readAll(checkpoint, atMost)).filter((event) => event.position <= head).length;
    };
    return Promise.all(
      this.slots.map(async ({ projection, checkpoint }) => {
        if (!behind.has(checkpoint)) behind.set(checkpoint, count(checkpoint));
        return { name: projection.name, events: await behind.get(checkpoint)! };
      }),
    );
  }

  /** The running rebuild, or the last one; null when none has run in this process. */
  rebuildStatus(): RebuildStatus | null {
    return this.lastRebuild;
  }

  /** Resolves when the running rebuild (if any) has switched or failed. */
  async rebuilt(): Promise<RebuildStatus | null> {
    return (await this.rebuilding) ?? this.lastRebuild;
  }

  /**
   * After an append: one pass at the end of the loop turn, for every append committed in it (a
   * group commit settles many at once), instead of a pass begun by the first and another asked by the rest.
   */
  private catchUpThisTurn(): void {
    if (this.catchUpScheduled) return;
    this.catchUpScheduled = true;
    setImmediate(() => {
      this.catchUpScheduled = false;
      void this.catchUp();
    });
  }

  /** Applies everything appended so far. Concurrent calls share one pass (and ask for another). */
  /**
   * With several service processes on shared stores, only the holder of the projections lease
   * applies the log; the others read the checkpoints it commits (so their read-your-writes waits
   * still resolve) and take over when it is gone.
   */
  applyOnlyWhile(holdsLease: () => boolean): void {
    this.applying = holdsLease;
  }

  catchUp(onProgress?: (progress: Progress) => void): Promise<void> {
    return this.runs(onProgress);
  }

  /**
   * Offline: empties the live read models (all, or the named ones) and replays the whole log into
   * them, in the rebuild's batches and without their indexes, which are built once at the end.
   */
  async replayInPlace(names: readonly string[] | null, onProgress?: (progress: Progress) => void): Promise<number> {
    await this.runs.current();
    const chosen = this.chosen(names);
    for (const slot of chosen) {
      const collections = [...generationNames(slot.projection, slot.live.generation).values()];
      await this.raw.reset(collections, [checkpointName(slot.projection.name, slot.live)]);
      await this.raw.dropIndexes(collections);
      this.setLive(slot, { generation: slot.live.generation, version: slot.projection.version });
      await this.raw.commit([pointerWrite(slot.projection.name, slot.live)]);
      slot.checkpoint = 0n;
    }
    let events = 0;
    await this.exclusive(() =>
      this.drain((progress) => {
        events = progress.events;
        onProgress?.(progress);
      }, this.rebuildBatchSize),
    );
    for (const slot of chosen) await this.raw.ensureIndexes(generationIndexes(slot.projection, slot.live.generation));
    await this.catchUp();
    return events;
  }

  /**
   * Blue/green: builds a new generation of the chosen read models (all when `names` is null) from
   * position zero beside the live one, which keeps serving reads and following the log; once it
   * has caught up, it takes the live generation's turn, brings both to the same position, (with
   * `verify`) compares them document by document, and switches reads to the new one atomically.
   * Resolves at once; `rebuilt()` waits for the end and `rebuildStatus()` reports the progress.
   */
  startRebuild(names: readonly string[] | null, options: { verify: boolean }): RebuildStatus {
    if (this.rebuilding) throw new RebuildRunning('a rebuild is already running');
    const slots = this.chosen(names);
    const status: RebuildStatus = {
      status: 'running',
      projections: slots.map((slot) => slot.projection.name),
      verify: options.verify,
      events: 0,
      position: 0n,
      head: 0n,
      eventsPerSecond: 0,
      etaSeconds: null,
      differences: null,
      error: null,
    };
    this.lastRebuild = status;
    this.rebuilding = this.rebuild(slots, status).then(
      () => status,
      (error: unknown) => {
        status.status = 'failed';
        status.error = error instanceof Error ? error.message : String(error);
        this.logger.error({ err: error, projections: status.projections }, 'rebuild failed; the live generation keeps serving');
        return status;
      },
    );
    void this.rebuilding.finally(() => {
      this.rebuilding = null;
    });
    return status;
  }

  private chosen(names: readonly string[] | null): Slot[] {
    return this.slots.filter((slot) => names === null || names.includes(slot.projection.name));
  }

  private setLive(slot: Slot, generation: Generation): void {
    slot.live = generation;
    for (const [collection, name] of generationNames(slot.projection, generation.generation)) this.live.set(collection, name);
  }

  private async rebuild(slots: Slot[], status: RebuildStatus): Promise<void> {
    const builds = slots.map((slot) => {
      const target: Generation = { generation: slot.live.generation + 1, version: slot.projection.version };
      return { slot, target, names: generationNames(slot.projection, target.generation), checkpoint: checkpointName(slot.projection.name, target) };
    });
    const names = new Map(builds.flatMap((build) => [...build.names]));
    const view = new GenerationView(this.raw, (collection) => names.get(collection) ?? collection);
    // Every build's collections at once (a store may commit each call once: SQLite's fsyncs).
    const collections = builds.flatMap((build) => [...build.names.values()]);
    // A generation left by an interrupted rebuild is emptied first.
    await this.raw.reset(collections, builds.map((build) => build.checkpoint));
    // Indexed from the start (instant on the empty generation; SQLite keeps indexed fields in columns
    // written with each document): the writer keeps the indexes as it inserts, beside the replay,
    // instead of building them after it while the replay waits. A unique index broken fails the rebuild.
    await this.raw.ensureIndexes(builds.flatMap((build) => generationIndexes(build.slot.projection, build.target.generation)));
    const started = performance.now();
    let lastLog = started;
    /** The rate and ETA once the replay has reached `position`, having read `events` events. */
    const progressed = (position: bigint, events: number) => {
      status.position = position;
      status.events = events;
      const seconds = Math.max((performance.now() - started) / 1000, 0.001);
      if (status.head < position) status.head = position;
      status.eventsPerSecond = Math.round(status.events / seconds);
      const positionsPerSecond = Number(position) / seconds;
      status.etaSeconds = positionsPerSecond > 0 ? Math.round(Number(status.head - position) / positionsPerSecond) : null;
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        this.logger.info(
          { projections: status.projections, events: status.events, position: String(position), head: String(status.head), eventsPerSecond: status.eventsPerSecond, etaSeconds: status.etaSeconds },
          'rebuild progress',
        );
      }
    };
    const stored = this.raw.generationWriter();
    const writer = view.writerFor(stored);
    try {
      this.logger.info({ projections: status.projections, generations: builds.map((b) => b.target) }, 'rebuild started beside the live generation');
      status.head = await this.store.headPosition();
      // Split by read model across threads, up to the head as it stands; the rest on this loop.
      const partitions = this.partitions;
      if (partitions && partitions.threads > 1 && builds.length > 1 && status.head >= BigInt(partitions.fromEvents)) {
        const upTo = status.head;
        const shares = await partitions.typeShares(upTo);
        const groups = partitionByWork(builds.map((build) => ({ handles: build.slot.projection.handles, build })), shares, partitions.threads);
        const events = await partitions.replay({
          groups: groups.map((group) => group.map(({ build }) => ({ projection: build.slot.projection.name, names: [...build.names], checkpoint: build.checkpoint }))),
          upTo,
          writer,
          sizes: { batch: this.rebuildBatchSize, flushDocuments: this.rebuildFlushDocuments, commitSize: this.rebuildCommitSize },
          onProgress: (progress) => progressed(progress.position, progress.events),
          stopped: () => this.stopped,
        });
        progressed(upTo, events);
        this.logger.info(
          { groups: groups.map((group) => group.map(({ build }) => build.slot.projection.name)), events, position: String(upTo) },
          'rebuild replayed in partitions; the rest follows on this loop',
        );
      }
      const replay = generationReplay({
        read: async (after) => {
          const events = await this.store.readAll(after, this.rebuildBatchSize);
          return { events, reached: events.length > 0 ? events[events.length - 1]!.position : after };
        },
        view,
        writer,
        projections: builds.map((build) => build.slot.projection),
        checkpoints: builds.map((build) => build.checkpoint),
        indexed: this.indexed,
        flushDocuments: this.rebuildFlushDocuments,
        commitSize: this.rebuildCommitSize,
        from: status.position,
      });
      /** Applies the next batch to the new generation; the number of events it held. */
      const step = async (): Promise<number> => {
        // The service's requests first: a batch takes milliseconds, and its reads resolve at once, so
        // without a turn of the loop between batches a rebuild held it for seconds on end.
        await nextTurn();
        const read = await replay.step();
        if (read > 0) progressed(replay.position(), status.events + read);
        return read;
      };
      // Beside the live generation: it keeps following the log meanwhile.
      // The head read again every 20 batches (not by the events read: after a split replay they are any number).
      for (let batches = 1; !this.stopped && (await step()) === this.rebuildBatchSize; batches++) {
        if (batches % 20 === 0) status.head = await this.store.headPosition();
      }
      if (this.stopped) throw new Error('the service stopped before the rebuild switched');
      await replay.flushed();
      const retired: string[] = [];
      await this.exclusive(async () => {
        // Both generations to the same position: the live one to the head, the new one to where the live one stands.
        for (;;) {
          await this.drain();
          while ((await step()) > 0);
          await replay.flushed();
          if (slots.every((slot) => slot.checkpoint === status.position)) break;
          if (this.stopped) throw new Error('the service stopped before the rebuild switched');
        }
        if (status.verify) status.differences = await this.compare(slots, view);
        await this.raw.commit(builds.map((build) => pointerWrite(build.slot.projection.name, build.target)));
        for (const build of builds) {
          const old = build.slot.live;
          this.setLive(build.slot, build.target);
          build.slot.checkpoint = status.position;
          retired.push(...generationNames(build.slot.projection, old.generation).values());
          await this.raw.reset([], [checkpointName(build.slot.projection.name, old)]);
        }
      });
      // Dropped, not emptied (each rebuild would otherwise leave a table or collection behind), by the
      // writer: the loop serves from the new generation meanwhile. A crash first leaves them to the next start.
      await stored.drop(retired);
    } finally {
      await writer.close();
    }
    status.head = status.position;
    status.etaSeconds = 0;
    status.status = 'switched';
    this.logger.info(
      { projections: status.projections, events: status.events, eventsPerSecond: status.eventsPerSecond, differences: status.differences?.length ?? null },
      'rebuild switched reads to the new generation',
    );
  }

  /** Every document of the new generation (seen through `newGeneration`) against the live one, both at the same position. */
  private async compare(slots: Slot[], newGeneration: ReadStore): Promise<Difference[]> {
    const differences: Difference[] = [];
    for (const slot of slots) {
      for (const collection of slot.projection.collections) {
        const report = (id: string, difference: Difference['difference']) => differences.push({ projection: slot.projection.name, collection, id, difference });
        // Both in id order, side by side: a page of each held at a time.
        const live = inIdOrder(this.readStore, collection);
        const fresh = inIdOrder(newGeneration, collection);
        let [left, right] = await Promise.all([nextOf(live), nextOf(fresh)]);
        while (left || right) {
          if (left && (!right || sortsBefore(left.id, right.id))) {
            report(left.id, 'only_live');
            left = await nextOf(live);
          } else if (right && (!left || sortsBefore(right.id, left.id))) {
            report(right.id, 'only_new');
            right = await nextOf(fresh);
          } else if (left && right) {
            if (!isDeepStrictEqual(left, right)) report(left.id, 'changed');
            [left, right] = await Promise.all([nextOf(live), nextOf(fresh)]);
          }
        }
      }
    }
    return differences;
  }

  private async drain(onProgress?: (progress: Progress) => void, batchSize = this.batchSize): Promise<void> {
    if (!this.applying()) return this.followCheckpoints();
    const head = onProgress ? await this.store.headPosition() : 0n;
    let seen = 0;
    while (!this.stopped) {
      const from = this.position();
      const batch = await this.store.readAll(from, batchSize);
      if (batch.length === 0) break;
      const last = batch[batch.length - 1]!.position;
      // One context and one commit for every projection: the batch costs one transaction.
      const context = batchContext(storeSource(this.readStore), this.indexed);
      const moved = this.slots.filter((slot) => slot.checkpoint < last);
      await applyBatch(moved.map((slot) => ({ projection: slot.projection, after: slot.checkpoint })), batch, context);
      const writes = context.writes();
      // A sandbox reset's deletions (thousands of documents) first, a step at a time, the loop
      // turning between; the batch's commit then deletes what is left (what it wrote before the reset).
      for (const write of writes) if (write.op === 'deleteWhere') await deleteInSteps(this.readStore, write.collection, write.field, write.eq);
      const previous = moved.map((slot) => slot.checkpoint);
      // Waiters are released once reads see the batch (before its commit on the embedded store: what
      // a released request writes next joins the batch's commit instead of waiting for one of its own).
      const reached = () => {
        for (const slot of moved) slot.checkpoint = last;
        this.release();
      };
      try {
        await this.readStore.commit(
          writes,
          moved.map((slot) => ({ name: checkpointName(slot.projection.name, slot.live), position: last })),
          reached,
        );
      } catch (error) {
        // Its commit failed: the batch is gone from the read models, and is applied again.
        moved.forEach((slot, i) => (slot.checkpoint = previous[i]!));
        throw error;
      }
      reached();
      seen += batch.length;
      onProgress?.({ position: last, head: head > last ? head : last, events: seen });
    }
  }

  /** Where the lease holder has got to: its live generations and checkpoints, as committed. */
  private async followCheckpoints(): Promise<void> {
    for (const slot of this.slots) {
      const pointer = await this.raw.get<GenerationDoc>(GENERATIONS, slot.projection.name);
      if (pointer && pointer.generation !== slot.live.generation) this.setLive(slot, { generation: pointer.generation, version: pointer.version });
      slot.checkpoint = await this.raw.checkpoint(checkpointName(slot.projection.name, slot.live));
    }
    this.release();
  }

  private release(): void {
    const reached = this.position();
    for (const waiter of this.waiters) if (waiter.position <= reached) waiter.resolve(true);
  }
}
