import { invoiceStream } from '../domain/invoice/events';
import { subscriptionStream } from '../domain/subscription/events';
import type { EventStore, StoredEvent } from '../infra/event-store/port';
import type { ReadStore } from '../infra/read-store/port';
import { ownedBy } from './history';
import { type InvoiceDoc, INVOICES, invoicesProjection } from './invoices';
import { memoryContext, replay } from './replay';
import { type SubscriptionDoc, SUBSCRIPTIONS, subscriptionsProjection } from './subscriptions';

export type SubscriptionAsOf = SubscriptionDoc & { invoices: InvoiceDoc[] };

const newestFirst = (a: { created: string; id: string }, b: { created: string; id: string }) =>
  a.created === b.created ? (a.id < b.id ? 1 : -1) : a.created < b.created ? 1 : -1;

/**
 * The subscription as it stood at `asOf` (null: now): its events recorded up to then run through the
 * very projection that keeps its read model, in memory, and so do those of its invoices. There is
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
  const context = memoryContext();
  await replay(subscriptionsProjection, events, context);
  const subscription = (await context.get<SubscriptionDoc>(SUBSCRIPTIONS, subscriptionId)) ?? null;
  if (!subscription) return null;
  // The read model names the subscription's invoices; each is rebuilt from its own events up to the
  // instant by the invoices projection (credit notes join the same way once they exist).
  const known = await readStore.findAll(INVOICES, [{ field: '_organisation', eq: organisationId }, { field: 'subscription', eq: subscriptionId }]);
  for (const { id } of known) await replay(invoicesProjection, upTo(await store.readStream(invoiceStream(id))), context);
  const invoices = (context.documents(INVOICES) as InvoiceDoc[]).sort(newestFirst);
  return { ...subscription, invoices };
};
