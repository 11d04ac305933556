import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { decodeEvent, encodeEvent } from '../../domain/decode-event';
import type { Decider, DomainEvent } from '../../domain/shared/decider';
import { type EventMetadata, type EventStore, type StreamMark, WrongExpectedRevision } from '../../infra/event-store/port';
import { newEventId } from '../../infra/ids';

export type Handled<State, Event> = Readonly<{
  state: State;
  events: Event[];
  /** Global position of the last appended event; 0n when the command changed nothing. */
  position: bigint;
  /** The stream's revision `state` stands at: a later command in the request starts from it instead of reading the stream again. */
  revision: number | 'no_stream';
  /** The log as the store saw it then, where it keeps marks: a later load from `state` may skip the read (`loadState`). */
  mark?: StreamMark;
}>;

export type Loaded<State> = Readonly<{
  state: State;
  revision: number | 'no_stream';
  /** Global position of the event at `revision`, where the loader saw it (a read-after-write waits for it). */
  position?: bigint;
  /** The log as the store saw it when this was read or appended, where the store keeps marks: a later load may skip the read. */
  mark?: StreamMark;
}>;

/** What a handler may do between deciding and appending: an outside effect the events depend on, run once per decision. */
export type BeforeAppend<State, Event> = (events: Event[], state: State) => Promise<void>;

const MAX_ATTEMPTS = 5;

/** A short, jittered pause before retrying a version conflict, so racing writers do not collide again in lockstep. */
const conflictBackoff = (attempt: number) => sleep(Math.floor(Math.random() * 10 * attempt) + 2);

/**
 * Events a load reads and folds at a time. A stream longer than this (a usage stream of a lifetime
 * of batches, cold after a restart) is folded a page at a time, the loop turning between pages: a
 * page's texts held at once, not the whole stream's, and other requests served meanwhile.
 */
export const FOLD_PAGE = 250;

/**
 * Folds the stream from the start, or only the events after `from` onto its state; `from` as it is
 * when the store knows the stream unchanged since it was read (no read at all).
 */
export const loadState = async <State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  from?: Loaded<State>,
): Promise<Loaded<State>> => {
  if (from?.mark && store.unchangedSince?.(streamId, from.mark)) return from;
  const mark = store.streamMark?.();
  let state = from ? from.state : decider.initialState();
  let revision = from?.revision ?? 'no_stream';
  let position = from?.position;
  for (;;) {
    const page = await store.readStreamToFold(streamId, revision === 'no_stream' ? 0 : revision + 1, FOLD_PAGE);
    for (const event of page) state = decider.evolve(state, decodeEvent(event) as unknown as Event);
    const last = page.at(-1);
    if (last) ({ revision, position } = last);
    if (page.length < FOLD_PAGE) break;
    await nextTurn();
  }
  return { state, revision, ...(position === undefined ? {} : { position }), ...(mark ? { mark } : {}) };
};

/**
 * Where a handler gets its state, when not by folding the whole stream each time (usage streams are
 * kept folded between requests); told the state and revision its events were committed at.
 */
export type StateSource<State> = Readonly<{
  load(): Promise<Loaded<State>>;
  committed(loaded: Loaded<State>): void;
  /** The append was refused for a revision conflict: the state loaded for it is behind (or ahead of) the log. */
  conflicted?(): void;
}>;

/**
 * Load the stream, decide, append with the expected revision; retry only on a revision conflict.
 * `decide` may answer more than events (a usage batch's outcome per event): `result` comes back with them.
 */
export const handleDecision = async <State, Event extends DomainEvent, Result>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>,
  decide: (state: State) => Readonly<{ events: Event[]; result: Result }>,
  metadata: EventMetadata,
  beforeAppend?: BeforeAppend<State, Event>,
  source: StateSource<State> = { load: () => loadState(store, streamId, decider), committed: () => undefined },
): Promise<Handled<State, Event> & Readonly<{ result: Result }>> => {
  for (let attempt = 1; ; attempt++) {
    const { state, revision, mark } = await source.load();
    const decided = decide(state);
    const { result } = decided;
    if (decided.events.length === 0) return { state, events: decided.events, position: 0n, revision, result, ...(mark ? { mark } : {}) };
    // Checked before anything else sees them: the log, the state kept and the caller get the data a replay reads.
    const encoded = decided.events.map((event) => encodeEvent(event.type, event.data));
    const events: Event[] = decided.events.map((event, i) => ({ ...event, data: encoded[i]!.data }));
    await beforeAppend?.(events, state);
    try {
      const appended = await store.append(
        streamId,
        events.map((event, i) => ({
          id: newEventId(),
          type: event.type,
          version: encoded[i]!.version,
          data: event.data,
          metadata: { ...metadata, dataSchema: encoded[i]!.dataSchema },
        })),
        revision,
      );
      // Folded only once committed: a state kept between requests never holds events that were refused.
      const next = events.reduce(decider.evolve, state);
      source.committed({ state: next, revision: appended.nextExpectedRevision, position: appended.position, ...(appended.mark ? { mark: appended.mark } : {}) });
      return { state: next, events, position: appended.position, revision: appended.nextExpectedRevision, result, ...(appended.mark ? { mark: appended.mark } : {}) };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevision)) throw error;
      source.conflicted?.();
      if (attempt >= MAX_ATTEMPTS) throw error;
      await conflictBackoff(attempt);
    }
  }
};

/** Load the stream (or start from `loaded`), decide, append with the expected revision; retry only on a revision conflict. */
export const handle = async <State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  metadata: EventMetadata,
  beforeAppend?: BeforeAppend<State, Event>,
  source?: StateSource<State>,
): Promise<Handled<State, Event>> => {
  const { result: _result, ...handled } = await handleDecision(
    store,
    streamId,
    decider,
    (current) => ({ events: decider.decide(command, current), result: null }),
    metadata,
    beforeAppend,
    source,
  );
  return handled;
};
