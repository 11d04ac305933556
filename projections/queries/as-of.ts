import { creditNoteStream } from '../../domain/credit-note/events';
import { invoiceStream } from '../../domain/invoice/events';
import { subscriptionStream } from '../../domain/subscription/events';
import { usageStream } from '../../domain/usage/events';
import type { EventStore, StoredEvent } from '../../infra/event-store/port';
import type { ReadStore } from '../../infra/read-store/port';
import { CREDIT_NOTES, type CreditNoteDoc, creditNotesProjection } from '../read-models/credit-notes';
import { ownedBy } from './history';
import { type InvoiceDoc, INVOICES, invoicesProjection } from '../read-models/invoices';
import { memoryContext, replay } from '../engine/replay';
import { type SubscriptionDoc, SUBSCRIPTIONS, subscriptionsProjection } from '../read-models/subscriptions';

export type SubscriptionAsOf = SubscriptionDoc & { invoices: InvoiceDoc[]; credit_notes: CreditNoteDoc[] };

/** The documents that belong to a subscription, each kept by its own projection from its own streams. */
const RELATED = [
  { projection: invoicesProjection, collection: INVOICES, stream: invoiceStream },
  { projection: creditNotesProjection, collection: CREDIT_NOTES, stream: creditNoteStream },
];

const newestFirst = (a: { created: string; id: string }, b: { created: string; id: string }) =>
  a.created === b.created ? (a.id < b.id ? 1 : -1) : a.created < b.created ? 1 : -1;

/**
 * The subscription as it stood at `asOf` (null: now): its events recorded up to then run through the
 * very projection that keeps its read model, in memory, and so do those of its invoices and credit notes. There is
 * no second implementation of the state, so the read model and this view agree at every event.
 * Null when the subscription did not exist then, or is another organisation's.
 */
export const subscriptionAsOf = async (
  store: EventStore,
  readStore: ReadStore,
  organisationId: string,
  subscriptionId: string,
  asOf: Date | null,
): Promise<SubscriptionAsOf | null> => {
  const upTo = (events: StoredEvent[]) => (asOf ? events.filter((e) => Date.parse(e.metadata.recordedTime) <= asOf.getTime()) : events);
  const events = upTo(await store.readStream(subscriptionStream(subscriptionId)));
  if (!ownedBy(events, organisationId, subscriptionId)) return null;
  // Its usage periods billed (in its usage stream) move its usage values; they run in log order with its own events.
  const billed = upTo(await store.readStreamOfTypes(usageStream(subscriptionId), ['UsagePeriodBilled']));
  const context = memoryContext();
  await replay(subscriptionsProjection, [...events, ...billed].sort((a, b) => (a.position < b.position ? -1 : 1)), context);
  const subscription = (await context.get<SubscriptionDoc>(SUBSCRIPTIONS, subscriptionId)) ?? null;
  if (!subscription) return null;
  // The read models name the subscription's invoices and credit notes; their events up to the
  // instant run, in log order as the runner applies them, through their own projections (an
  // allocation in a credit note's stream moves its invoice's credit_note_amount).
  const related = await Promise.all(
    RELATED.map(({ collection, stream }) =>
      readStore.findAll(collection, [{ field: '_organisation', eq: organisationId }, { field: 'subscription', eq: subscriptionId }]).then((docs) => docs.map(({ id }) => stream(id))),
    ),
  );
  const relatedEvents = upTo((await Promise.all(related.flat().map((stream) => store.readStream(stream)))).flat()).sort((a, b) =>
    a.position < b.position ? -1 : 1,
  );
  for (const { projection } of RELATED) await replay(projection, relatedEvents, context);
  return {
    ...subscription,
    invoices: (context.documents(INVOICES) as InvoiceDoc[]).sort(newestFirst),
    credit_notes: (context.documents(CREDIT_NOTES) as CreditNoteDoc[]).sort(newestFirst),
  };
};
