import { decodeEvent } from '../../domain/decode-event';
import { compareDates } from '../../domain/pricing/calendar';
import type { Quantity } from '../../domain/pricing/quantity';
import { keepStoredIds, usageDecider } from '../../domain/usage/decider';
import { usageSnapshotOf, usageStateFromSnapshot } from '../../domain/usage/snapshot';
import { forgetIdsThrough, type UsageState } from '../../domain/usage/state';
import { type UsageEvent, type UsagePeriodBilledData, usageStream } from '../../domain/usage/events';
import type { EventMetadata, EventStore } from '../../infra/event-store/port';
import { dropSlack } from '../../infra/recently-used';
import type { StateSnapshots } from '../../infra/state-snapshots/port';
import { FOLD_PAGE, handleDecision, type Loaded, loadState, type StateSource } from './handle';
import { perStore } from './per-store';

/** What this process keeps folded: at most this many streams, and event ids kept over all of them (about 90 bytes each, a UUID's). */
export type UsageStateLimits = Readonly<{ streams: number; eventIds: number }>;

/**
 * The least recently used stream is dropped past either (and read back from its snapshot when next
 * needed). Ids are kept only until the id index reads them, so the second bound is met only when
 * the index falls behind.
 */
const KEPT: UsageStateLimits = { streams: 1000, eventIds: 1_000_000 };

/** The last revision of a subscription's usage stream the id index has read (-1: none): the ids up to it are found there. */
export type UsageIdsRead = (subscriptionId: string) => Promise<number>;

/** Where snapshots of folded states are kept, and how many events folded since the last make another (200 unless given). */
export type UsageSnapshotting = Readonly<{ snapshots: StateSnapshots; everyEvents?: number; onError(error: unknown): void }>;

const SNAPSHOT_EVERY = 200;

/** A kept usage state's source; told which revisions' ids the caller finds elsewhere (the id index), it keeps none of them. */
export type UsageStateSource = StateSource<UsageState> & Readonly<{ forgetIdsThrough(revision: number): void }>;

/**
 * The usage streams this process has folded, kept between requests so a request reads only the
 * events appended since: folding a subscription's stream whole for each batch would grow with its
 * lifetime. A state keeps only the ids of events the id index has not read yet, and one lost is
 * read back from its snapshot. One request at a time per stream in this process (the state is
 * extended in place, so only its holder may touch it); writers in other processes are caught by
 * the expected revision, and their events read on the next load.
 */
export class UsageStates {
  private readonly kept = new Map<string, Loaded<UsageState>>();
  /** Per kept stream, the ids its state held when last kept, and their sum. */
  private readonly ids = new Map<string, number>();
  private keptIds = 0;
  private readonly queues = new Map<string, Promise<unknown>>();
  private idsRead: UsageIdsRead | null = null;
  private snapshotting: UsageSnapshotting | null = null;
  /** Per kept stream, the revision of the last snapshot written or read: the next is counted from it. */
  private readonly snapshotAt = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly limits: UsageStateLimits = KEPT,
  ) {}

  /** Where loads learn how far the id index has read each subscription's stream (the service sets it; without it every id is kept). */
  readIdsFrom(idsRead: UsageIdsRead): void {
    this.idsRead = idsRead;
  }

  /** Where a state folded from the start is snapshotted, and a state no longer kept read back from (the service sets it). */
  keepSnapshotsIn(snapshotting: UsageSnapshotting): void {
    this.snapshotting = snapshotting;
  }

  /** Runs `work` alone for this subscription's stream in this process, with a source that folds only what is new. */
  exclusive<T>(subscriptionId: string, work: (source: UsageStateSource) => Promise<T>): Promise<T> {
    const streamId = usageStream(subscriptionId);
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const run = previous.then(
      () => this.run(subscriptionId, streamId, work),
      () => this.run(subscriptionId, streamId, work),
    );
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(streamId, settled);
    void settled.then(() => {
      if (this.queues.get(streamId) === settled) this.queues.delete(streamId);
    });
    return run;
  }

  private async run<T>(subscriptionId: string, streamId: string, work: (source: UsageStateSource) => Promise<T>): Promise<T> {
    // Asked alone on the stream: no answer a holder decides by covers less than what was forgotten before it.
    let known = this.idsRead ? await this.idsRead(subscriptionId) : -1;
    const source: UsageStateSource = {
      load: async () => {
        const from = this.kept.get(streamId) ?? (await this.fromSnapshot(streamId, known)) ?? { state: usageDecider.initialState(), revision: 'no_stream' };
        // Before the fold: a cold one then never holds the ids it is told of.
        forgetIdsThrough(from.state.ids, known);
        const loaded = await loadState(this.store, streamId, usageDecider, from);
        this.snapshotIfDue(streamId, loaded);
        this.keep(streamId, loaded);
        return loaded;
      },
      committed: (loaded) => this.keep(streamId, loaded),
      forgetIdsThrough: (revision) => {
        known = Math.max(known, revision);
      },
    };
    return work(source);
  }

  /**
   * The stream's state from its snapshot, when there is one and the log still holds the event it
   * was taken at; the ids of the events after `known` up to it folded from the log (the snapshot
   * holds none). Null: fold from the start.
   */
  private async fromSnapshot(streamId: string, known: number): Promise<Loaded<UsageState> | null> {
    const snapshot = await this.snapshotting?.snapshots.read(streamId);
    const state = snapshot && usageStateFromSnapshot(snapshot.state, known);
    if (!snapshot || !state) return null;
    const [event] = await this.store.readStreamToFold(streamId, snapshot.revision, 1);
    if (event?.position !== snapshot.position) return null;
    for (let from = known + 1; from <= snapshot.revision; from += FOLD_PAGE) {
      const page = await this.store.readStreamToFold(streamId, from, Math.min(FOLD_PAGE, snapshot.revision + 1 - from));
      for (const stored of page) {
        const decoded = decodeEvent(stored);
        if (decoded.type === 'UsageRecorded') keepStoredIds(state.ids, stored.revision, decoded.data);
      }
    }
    this.snapshotAt.set(streamId, snapshot.revision);
    return { state, revision: snapshot.revision, position: snapshot.position };
  }

  /** Writes the state's snapshot once enough events were folded since the last (in the background: a failed write costs only a longer fold). */
  private snapshotIfDue(streamId: string, loaded: Loaded<UsageState>): void {
    const snapshotting = this.snapshotting;
    const { revision, position } = loaded;
    if (!snapshotting || revision === 'no_stream' || position === undefined) return;
    if (revision - (this.snapshotAt.get(streamId) ?? -1) < (snapshotting.everyEvents ?? SNAPSHOT_EVERY)) return;
    this.snapshotAt.set(streamId, revision);
    snapshotting.snapshots.write(streamId, { revision, position, state: usageSnapshotOf(loaded.state) }).catch(snapshotting.onError);
  }

  /** The streams kept folded, least recently used first. */
  keptStreams(): string[] {
    return [...this.kept.keys()];
  }

  /** The ids the stream's kept state holds (undefined: not kept). */
  idsKept(streamId: string): number | undefined {
    return this.ids.get(streamId);
  }

  /**
   * Keeps the state as the most recently used, then, past either limit by a tenth, drops the least
   * recently used down to both limits, never this one (a stream holding more ids than the limit is
   * kept alone). A state being worked on when dropped stays its holder's, and is kept again when its
   * append commits.
   */
  private keep(streamId: string, loaded: Loaded<UsageState>): void {
    this.drop(streamId);
    this.kept.set(streamId, loaded);
    this.ids.set(streamId, loaded.state.ids.seen.size);
    this.keptIds += loaded.state.ids.seen.size;
    const { streams, eventIds } = this.limits;
    // Past a limit by its slack, then down to it at once, as `RecentlyUsed` drops (one at a time, each drop would walk the Map's holes).
    if (this.kept.size <= streams + dropSlack(streams) && this.keptIds <= eventIds + dropSlack(eventIds)) return;
    for (const oldest of this.kept.keys()) {
      if (oldest === streamId || (this.kept.size <= streams && this.keptIds <= eventIds)) break;
      this.drop(oldest);
      this.snapshotAt.delete(oldest);
    }
  }

  private drop(streamId: string): void {
    this.kept.delete(streamId);
    this.keptIds -= this.ids.get(streamId) ?? 0;
    this.ids.delete(streamId);
  }
}

/** The one set of kept usage states for a log. */
export const usageStatesOf = perStore((store) => new UsageStates(store));

/**
 * Decides on a subscription's usage stream, alone in this process, from its kept state, and appends
 * with the expected revision (a writer elsewhere makes it decide again). `decide` answers the events
 * and a result (a batch's outcomes, a billed period); `prepare` runs first, alone on the stream too.
 */
export const decideOnUsageStream = <Result>(
  store: EventStore,
  subscriptionId: string,
  decide: (state: UsageState) => Readonly<{ events: UsageEvent[]; result: Result }>,
  metadata: EventMetadata,
  prepare?: (source: UsageStateSource) => Promise<void>,
) => {
  return usageStatesOf(store).exclusive(subscriptionId, async (source) => {
    await prepare?.(source);
    return handleDecision(store, usageStream(subscriptionId), usageDecider, decide, metadata, undefined, source);
  });
};

/** The usage totals of a subscription's periods starting on or after `from`: period start → meter id → quantity (a copy). */
export const usageTotalsFrom = (store: EventStore, subscriptionId: string, from: string): Promise<Map<string, Map<string, Quantity>>> =>
  usageStatesOf(store).exclusive(subscriptionId, async (source) => {
    const totals = new Map<string, Map<string, Quantity>>();
    for (const [periodStart, meters] of (await source.load()).state.totals) {
      if (compareDates(periodStart, from) >= 0) totals.set(periodStart, new Map([...meters].map(([meterId, total]) => [meterId, total.quantity])));
    }
    return totals;
  });

/** A subscription's billed usage periods by start (a copy: the kept state is extended in place). */
export const billedUsagePeriods = (store: EventStore, subscriptionId: string): Promise<Map<string, UsagePeriodBilledData>> =>
  usageStatesOf(store).exclusive(subscriptionId, async (source) => new Map((await source.load()).state.billed));

/** The usage invoices a subscription's billed periods raised. */
export const usageInvoiceIds = async (store: EventStore, subscriptionId: string): Promise<string[]> =>
  [...(await billedUsagePeriods(store, subscriptionId)).values()].flatMap((billed) => (billed.invoiceId === null ? [] : [billed.invoiceId]));
