import { customerStream } from '../domain/customer/events';
import { subscriptionStream } from '../domain/subscription/events';
import type { EventStore, NewEvent, StoredEvent } from '../infra/event-store/port';
import { newEventId, newId } from '../infra/ids';

/** Streams appended in one loop turn (one group commit). */
const COPIES_AT_ONCE = 500;

/**
 * `count` copies of a subscription and its customer under fresh ids (and customer codes `B1`,
 * `B2`…), their streams' events appended as their commands appended them, the customer's first.
 * Each renews on the template's renewal date, which makes an
 * organisation of thousands of subscriptions in seconds instead of minutes of creations. Answers the
 * copies' subscription ids.
 */
export const copySubscription = async (store: EventStore, template: Readonly<{ subscriptionId: string; customerId: string }>, count: number): Promise<string[]> => {
  const customer = await store.readStream(customerStream(template.customerId));
  const subscription = await store.readStream(subscriptionStream(template.subscriptionId));
  if (customer.length === 0 || subscription.length === 0) throw new Error('the template subscription or its customer has no events');
  /** The stream's events under a new id, the fields naming it replaced where an event has them. */
  const copyOf = (events: readonly StoredEvent[], fields: Record<string, string>): NewEvent[] =>
    events.map(({ type, version, data, metadata }) => {
      const copied: Record<string, unknown> = { ...(data as Record<string, unknown>) };
      for (const [field, value] of Object.entries(fields)) if (field in copied) copied[field] = value;
      return { id: newEventId(), type, version, data: copied, metadata };
    });
  const ids: string[] = [];
  for (let first = 1; first <= count; first += COPIES_AT_ONCE) {
    const copies = Array.from({ length: Math.min(COPIES_AT_ONCE, count - first + 1) }, (_, k) => ({ code: `B${first + k}`, customerId: newId('customer'), subscriptionId: newId('subscription') }));
    await Promise.all(copies.map(({ code, customerId }) => store.append(customerStream(customerId), copyOf(customer, { customerId, code, name: `Copy ${code}` }), 'no_stream')));
    await Promise.all(
      copies.map(({ code, customerId, subscriptionId }) => store.append(subscriptionStream(subscriptionId), copyOf(subscription, { subscriptionId, customerId, customerCode: code }), 'no_stream')),
    );
    ids.push(...copies.map((copy) => copy.subscriptionId));
  }
  return ids;
};
