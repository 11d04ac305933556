import { creditNoteDecider } from '../domain/credit-note/decider';
import { customerDecider } from '../domain/customer/decider';
import { decodeEvent } from '../domain/decode-event';
import { invoiceDecider } from '../domain/invoice/decider';
import type { Decider, DomainEvent } from '../domain/shared/decider';
import { subscriptionDecider } from '../domain/subscription/decider';
import { creditNoteObject, customerObject, invoiceObject, subscriptionObject, type TrackedObject } from '../domain/webhook/event-objects';
import type { EventStore, StoredEvent } from '../infra/event-store/port';
import { RecentlyUsed } from '../infra/recently-used';

/** States kept, one per stream, the least recently folded dropped first. */
const KEPT_STREAMS = 1_000;

type Kind = Readonly<{ prefix: string; initialState: () => unknown; evolve: (state: unknown, event: unknown) => unknown; project: (state: unknown) => TrackedObject | null }>;

const kind = <S, E extends DomainEvent>(prefix: string, decider: Pick<Decider<S, never, E>, 'initialState' | 'evolve'>, project: (state: S) => TrackedObject | null): Kind => ({
  prefix,
  initialState: decider.initialState,
  evolve: (state, event) => decider.evolve(state as S, event as E),
  project: (state) => project(state as S),
});

const KINDS: readonly Kind[] = [
  kind('invoice-', invoiceDecider, invoiceObject),
  kind('customer-', customerDecider, customerObject),
  kind('subscription-', subscriptionDecider, subscriptionObject),
  kind('credit_note-', creditNoteDecider, creditNoteObject),
];

/**
 * The object a webhook describes, before and after an event of its stream (null for a stream whose
 * objects webhooks do not describe). Folded onto the state kept after an earlier event of the
 * stream, reading only the events between (none when it was the one before: the fan-out follows the
 * log in order), or from the stream's start; a long stream costs one event's fold per event instead
 * of the whole stream's.
 */
export const trackedObjects = (store: EventStore) => {
  const kept = new RecentlyUsed<string, Readonly<{ revision: number; state: unknown }>>(KEPT_STREAMS);
  return async (event: StoredEvent): Promise<[TrackedObject | null, TrackedObject | null]> => {
    const of = KINDS.find((k) => event.streamId.startsWith(k.prefix));
    if (!of) return [null, null];
    const previous = kept.get(event.streamId);
    // A state kept at this event or after it (a batch applied again) is no start for it.
    const base = previous !== undefined && previous.revision < event.revision ? previous : { revision: -1, state: of.initialState() };
    const between = event.revision - base.revision - 1;
    const before = between === 0 ? base.state : (await store.readStream(event.streamId, base.revision + 1, between)).map(decodeEvent).reduce(of.evolve, base.state);
    const after = of.evolve(before, decodeEvent(event));
    kept.set(event.streamId, { revision: event.revision, state: after });
    return [of.project(before), of.project(after)];
  };
};
