import { decodeEvent } from '../domain/decode-event';
import type { UsagePeriodBilled, UsageRecorded } from '../domain/usage/events';
import { type RecordedUsage, recordedUsages, usageStream } from '../domain/usage/events';
import type { EventStore } from '../infra/event-store/port';
import type { ReadStore } from '../infra/read-store/port';
import { USAGE_PERIODS, type UsagePeriodDoc, usagePeriodId } from './usage';

/** One usage event as the client reported it and the service stored it. */
export type BilledUsageEvent = RecordedUsage & Readonly<{ recordedAt: string }>;

/**
 * The usage events a usage invoice line billed, in the order they were stored: those of its meter in
 * the period whose billing raised the invoice, read from the subscription's usage stream (every one
 * was stored before the period was billed; later ones dated in it are refused). Read from the
 * period's first event (its `usage_periods` document) up to its billing, not from the stream's
 * start: the cost of one period, however long the subscription has reported. Empty for an invoice
 * no usage period raised.
 */
export const billedUsageEvents = async (
  store: EventStore,
  readStore: Pick<ReadStore, 'get'>,
  subscriptionId: string,
  invoiceId: string,
  meterId: string,
): Promise<BilledUsageEvent[]> => {
  const stream = usageStream(subscriptionId);
  const billing = (await store.readStreamOfTypes(stream, ['UsagePeriodBilled']))
    .map(decodeEvent)
    .find((e) => (e.data as UsagePeriodBilled['data']).invoiceId === invoiceId);
  if (!billing) return [];
  const { periodStart, meters } = billing.data as UsagePeriodBilled['data'];
  if (meters.find((meter) => meter.meterId === meterId)?.events === 0) return [];
  // A document not there yet (its read model behind, or rebuilt) or of an older version: from the stream's start.
  const period = await readStore.get<UsagePeriodDoc>(USAGE_PERIODS, usagePeriodId(subscriptionId, meterId, periodStart));
  const from = Math.min(period?.first_revision ?? 0, billing.revision);
  return (await store.readStream(stream, from, billing.revision - from))
    .filter((e) => e.type === 'UsageRecorded')
    .map(decodeEvent)
    .flatMap((e) =>
      recordedUsages(e.data as UsageRecorded['data'])
        .filter((usage) => usage.meterId === meterId && usage.periodStart === periodStart)
        .map((usage) => ({ ...usage, recordedAt: e.metadata.recordedTime })),
    );
};
