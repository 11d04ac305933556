import { decodeEvent } from '../domain/decode-event';
import type { RecordedUsage, UsagePeriodBilled, UsageRecorded } from '../domain/usage/events';
import { recordedUsages, usageStream } from '../domain/usage/events';
import type { EventStore } from '../infra/event-store/port';

/** One usage event as the client reported it and the service stored it. */
export type BilledUsageEvent = RecordedUsage & Readonly<{ recordedAt: string }>;

/**
 * The usage events a usage invoice line billed, in the order they were stored: those of its meter in
 * the period whose billing raised the invoice, read from the subscription's usage stream (every one
 * was stored before the period was billed; later ones dated in it are refused). Empty for an invoice
 * no usage period raised.
 */
export const billedUsageEvents = async (store: EventStore, subscriptionId: string, invoiceId: string, meterId: string): Promise<BilledUsageEvent[]> => {
  const events = (await store.readStream(usageStream(subscriptionId))).map(decodeEvent);
  const billing = events.find((e) => e.type === 'UsagePeriodBilled' && (e.data as UsagePeriodBilled['data']).invoiceId === invoiceId);
  if (!billing) return [];
  const { periodStart } = billing.data as UsagePeriodBilled['data'];
  return events
    .filter((e) => e.type === 'UsageRecorded' && e.revision < billing.revision)
    .flatMap((e) =>
      recordedUsages(e.data as UsageRecorded['data'])
        .filter((usage) => usage.meterId === meterId && usage.periodStart === periodStart)
        .map((usage) => ({ ...usage, recordedAt: e.metadata.recordedTime })),
    );
};
