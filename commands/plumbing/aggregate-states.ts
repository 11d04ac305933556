import type { Decider, DomainEvent } from '../../domain/shared/decider';
import type { EventStore } from '../../infra/event-store/port';
import { frozenUnderTest } from '../../infra/frozen-under-test';
import { RecentlyUsed } from '../../infra/recently-used';
import { type Loaded, loadState, type StateSource } from './handle';
import { perStore } from './per-store';

/** Streams kept folded per log; the least recently used are dropped past this (and folded whole when next needed). */
export const KEPT_AGGREGATES = 5000;

type Folding<State, Event extends DomainEvent> = Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>;
type Entry = Readonly<{ decider: object; loaded: Loaded<unknown> }>;

const revisionOf = (loaded: Loaded<unknown>): number => (loaded.revision === 'no_stream' ? -1 : loaded.revision);

/**
 * Aggregate states this process has folded, each with the stream revision it stands at, so a
 * load reads only the events appended after it: a long stream (an organisation's, an invoice's
 * retries) costs a request what a short one does. Bounded: least recently used out first.
 *
 * Safe under concurrent writers because a state only ever speeds up the read, never the decision's
 * check: the append still expects the revision the state stands at, and the store refuses it if
 * anyone (this process or another) appended since. On that refusal the entry the handler loaded is
 * dropped, so the retry folds the stream whole: a kept state that somehow ran ahead of the log
 * (events never committed) cannot refuse every retry. A kept state is never replaced by an older one.
 * Where the store keeps marks (the embedded log), a kept state it knows unchanged is not read at all.
 * `evolve` must return new states and never change the one it is given (every bound decider's
 * does; usage streams, whose decider extends its state in place, keep their own `UsageStates`).
 */
export class AggregateStates {
  private readonly kept: RecentlyUsed<string, Entry>;

  constructor(
    private readonly store: EventStore,
    capacity = KEPT_AGGREGATES,
  ) {
    this.kept = new RecentlyUsed(capacity);
  }

  /** Where a handler of this stream gets its state: the kept one, brought up to date. */
  source<State, Event extends DomainEvent>(streamId: string, decider: Folding<State, Event>): StateSource<State> {
    let used: Entry | undefined;
    return {
      load: async () => {
        const from = this.kept.get(streamId);
        const loaded = await loadState(this.store, streamId, decider, from?.decider === decider ? (from.loaded as Loaded<State>) : undefined);
        used = this.keep(streamId, decider, loaded);
        return loaded;
      },
      committed: (loaded) => void this.keep(streamId, decider, loaded),
      conflicted: () => {
        if (used && this.kept.get(streamId) === used) this.kept.delete(streamId);
      },
    };
  }

  /**
   * As `source`, but the first attempt decides on a state the request already holds (loaded or
   * returned by an earlier command) without reading; a retry after a conflict loads as `source` does.
   */
  sourceFrom<State, Event extends DomainEvent>(streamId: string, decider: Folding<State, Event>, held: Loaded<State>): StateSource<State> {
    const kept = this.source(streamId, decider);
    let first = true;
    return {
      ...kept,
      load: async () => {
        if (!first) return kept.load();
        first = false;
        return held;
      },
    };
  }

  /** Folds the stream as `loadState` does, from the kept state when there is one. */
  load<State, Event extends DomainEvent>(streamId: string, decider: Folding<State, Event>): Promise<Loaded<State>> {
    return this.source(streamId, decider).load();
  }

  get size(): number {
    return this.kept.size;
  }

  private keep(streamId: string, decider: object, loaded: Loaded<unknown>): Entry {
    const current = this.kept.get(streamId);
    // At the same revision the later load replaces it: its mark is the more recent.
    if (current && current.decider === decider && revisionOf(current.loaded) > revisionOf(loaded)) {
      this.kept.set(streamId, current);
      return current;
    }
    frozenUnderTest(loaded.state);
    const entry: Entry = { decider, loaded };
    this.kept.set(streamId, entry);
    return entry;
  }
}

/** The one set of kept aggregate states for a log. */
export const aggregateStatesOf = perStore((store) => new AggregateStates(store));
