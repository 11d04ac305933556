import { decodeEvent } from '../domain/decode-event';
import { coalescedRuns } from '../infra/coalesced-runs';
import type { EventStore, StoredEvent } from '../infra/event-store/port';
import type { Logger } from '../infra/logger';
import type { ReadStore } from '../infra/read-store/port';
import { batchContext } from './batch-context';
import type { Projection } from './projection';

export type RunnerOptions = Readonly<{ batchSize?: number; pollMs?: number }>;
export type Progress = Readonly<{ position: bigint; head: bigint; events: number }>;

type Waiter = { position: bigint; resolve: (reached: boolean) => void };

const checkpointName = (projection: Projection): string => `${projection.name}:v${projection.version}`;

/**
 * Follows the log and keeps every read model up to date. Each projection commits its documents
 * together with its checkpoint, so a crash between batches replays at most the unfinished batch.
 */
export class ProjectionRunner {
  private readonly checkpoints = new Map<Projection, bigint>();
  private readonly waiters = new Set<Waiter>();
  private readonly runs = coalescedRuns(
    (onProgress?: (progress: Progress) => void) => this.drain(onProgress),
    (error) => this.logger.error({ err: error }, 'projection run failed; retrying on the next append or poll'),
    () => this.stopped,
  );
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly batchSize: number;
  private readonly pollMs: number;

  constructor(
    private readonly store: EventStore,
    private readonly readStore: ReadStore,
    readonly projections: readonly Projection[],
    private readonly logger: Logger,
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Loads checkpoints; a projection without one (new, or a new version) starts from an empty read model. */
  async init(): Promise<void> {
    for (const projection of this.projections) {
      await this.readStore.ensureIndexes(projection.indexes);
      const position = await this.readStore.checkpoint(checkpointName(projection));
      if (position === 0n) await this.readStore.reset(projection.collections, []);
      this.checkpoints.set(projection, position);
    }
  }

  async start(): Promise<void> {
    await this.init();
    this.unsubscribe = this.store.onAppended(() => void this.catchUp());
    // Polling catches appends made by other processes.
    this.timer = setInterval(() => void this.catchUp(), this.pollMs);
    this.timer.unref();
    await this.catchUp();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.runs.current();
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters.clear();
  }

  /** The lowest position every projection has applied. */
  position(): bigint {
    let lowest: bigint | null = null;
    for (const position of this.checkpoints.values()) if (lowest === null || position < lowest) lowest = position;
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
      void this.catchUp();
    });
  }

  /** Applies everything appended so far. Concurrent calls share one pass (and ask for another). */
  catchUp(onProgress?: (progress: Progress) => void): Promise<void> {
    return this.runs(onProgress);
  }

  /** Empties the read models (all, or the named ones) and replays the whole log into them. */
  async rebuild(names: readonly string[] | null, onProgress?: (progress: Progress) => void): Promise<number> {
    await this.runs.current();
    const chosen = this.projections.filter((p) => names === null || names.includes(p.name));
    for (const projection of chosen) {
      await this.readStore.reset(projection.collections, [checkpointName(projection)]);
      this.checkpoints.set(projection, 0n);
    }
    let events = 0;
    await this.catchUp((progress) => {
      events = progress.events;
      onProgress?.(progress);
    });
    return events;
  }

  private async drain(onProgress?: (progress: Progress) => void): Promise<void> {
    const head = onProgress ? await this.store.headPosition() : 0n;
    let seen = 0;
    while (!this.stopped) {
      const from = this.position();
      const batch = await this.store.readAll(from, this.batchSize);
      if (batch.length === 0) break;
      const last = batch[batch.length - 1]!.position;
      const decoded = new Map<StoredEvent, StoredEvent>();
      // One context and one commit for every projection: the batch costs one transaction.
      const context = batchContext(this.readStore);
      const moved: Projection[] = [];
      for (const projection of this.projections) {
        const checkpoint = this.checkpoints.get(projection) ?? 0n;
        if (checkpoint >= last) continue;
        for (const event of batch) {
          if (event.position <= checkpoint || !projection.handles.includes(event.type)) continue;
          let decodedEvent = decoded.get(event);
          if (!decodedEvent) {
            decodedEvent = decodeEvent(event);
            decoded.set(event, decodedEvent);
          }
          await projection.apply(decodedEvent, context);
        }
        moved.push(projection);
      }
      await this.readStore.commit(
        context.writes(),
        moved.map((projection) => ({ name: checkpointName(projection), position: last })),
      );
      for (const projection of moved) this.checkpoints.set(projection, last);
      seen += batch.length;
      onProgress?.({ position: last, head: head > last ? head : last, events: seen });
      this.release();
    }
  }

  private release(): void {
    const reached = this.position();
    for (const waiter of this.waiters) if (waiter.position <= reached) waiter.resolve(true);
  }
}
