import { decodeEvent } from '../../domain/decode-event';
import { type RecordedUsage, recordedUsages, usageStream } from '../../domain/usage/events';
import type { EventStore, StoredEvent } from '../../infra/event-store/port';
import type { ReadStore } from '../../infra/read-store/port';
import { USAGE_PERIODS, type UsagePeriodDoc, usagePeriodId } from '../read-models/usage';

/** One usage event as the client reported it and the service stored it. */
export type BilledUsageEvent = RecordedUsage & Readonly<{ recordedAt: string }>;

/** The usage line a page is of: its subscription, invoice and meter. */
export type BilledUsageLine = Readonly<{ subscriptionId: string; invoiceId: string; meterId: string }>;

/** Where a page starts: after this event id, which the usage event id index names at these revisions of the usage stream. */
export type BilledUsageCursor = Readonly<{ eventId: string; revisions: readonly number[] }>;

export type BilledUsagePage = Readonly<{ events: BilledUsageEvent[]; hasMore: boolean }>;

/** Usage stream events a page's first read takes, doubling with each read after (a batch mostly fills a page alone; another meter's events may be sparse). */
const FIRST_READ = 2;
const MOST_READ = 256;

/**
 * A page of the usage events a usage invoice line billed, in the order they were stored: those of
 * its meter in the period whose billing raised the invoice, read from the subscription's usage
 * stream (every one was stored before the period was billed; later ones dated in it are refused).
 * The first page reads from the period's first event (its `usage_periods` document), a later one
 * from the event holding the cursor's id, and each only as far as it fills: the cost of a page,
 * however long the period or the subscription. Empty for an invoice no usage period raised; null
 * when the cursor is not an event this line billed.
 */
export const billedUsagePage = async (
  store: EventStore,
  readStore: Pick<ReadStore, 'get' | 'findAll'>,
  line: BilledUsageLine,
  limit: number,
  after?: BilledUsageCursor,
): Promise<BilledUsagePage | null> => {
  const stream = usageStream(line.subscriptionId);
  const billed = await billedPeriod(store, readStore, line);
  if (!billed) return after ? null : { events: [], hasMore: false };
  const { periodStart, end } = billed;
  const billedIn = (stored: StoredEvent): BilledUsageEvent[] => {
    const event = decodeEvent(stored);
    if (event.type !== 'UsageRecorded') return [];
    return recordedUsages(event.data)
      .filter((usage) => usage.meterId === line.meterId && usage.periodStart === periodStart)
      .map((usage) => ({ ...usage, recordedAt: event.metadata.recordedTime }));
  };
  let from = billed.from;
  const events: BilledUsageEvent[] = [];
  if (after) {
    const start = await cursorEvent(store, stream, after, from, end, billedIn);
    if (!start) return null;
    from = start.revision + 1;
    events.push(...start.rest);
  }
  for (let size = FIRST_READ; events.length <= limit && from < end; size = Math.min(size * 2, MOST_READ)) {
    const read = await store.readStream(stream, from, Math.min(size, end - from));
    if (read.length === 0) break;
    for (const event of read) events.push(...billedIn(event));
    from += read.length;
  }
  return { events: events.slice(0, limit), hasMore: events.length > limit };
};

/**
 * Where the line's events are in the usage stream: from the period's first event up to its billing
 * (exclusive), and the period's start; null when no usage period raised the invoice, or the meter
 * reported nothing in it. From the period's `usage_periods` document once it records the billing,
 * else from the stream's billings (read alone: SQLite skips the batches' rows unread, EventStoreDB
 * reads the stream whole) and the document's first revision (from the stream's start without one).
 */
const billedPeriod = async (store: EventStore, readStore: Pick<ReadStore, 'get' | 'findAll'>, line: BilledUsageLine) => {
  const [period] = await readStore.findAll<UsagePeriodDoc>(USAGE_PERIODS, [
    { field: 'subscription', eq: line.subscriptionId },
    { field: 'meter', eq: line.meterId },
    { field: 'invoice', eq: line.invoiceId },
  ]);
  if (period?.billed_revision !== undefined) return { periodStart: period.period_start, from: period.first_revision ?? 0, end: period.billed_revision };
  const billing = (await store.readStreamOfTypes(usageStream(line.subscriptionId), ['UsagePeriodBilled']))
    .map(decodeEvent)
    .find((e) => e.type === 'UsagePeriodBilled' && e.data.invoiceId === line.invoiceId);
  if (billing?.type !== 'UsagePeriodBilled') return null;
  const { periodStart, meters } = billing.data;
  if (meters.find((meter) => meter.meterId === line.meterId)?.events === 0) return null;
  const document = await readStore.get<UsagePeriodDoc>(USAGE_PERIODS, usagePeriodId(line.subscriptionId, line.meterId, periodStart));
  return { periodStart, from: Math.min(document?.first_revision ?? 0, billing.revision), end: billing.revision };
};

/** The event holding the cursor's id among the revisions named (in the period, before its billing), and what it billed after that id. */
const cursorEvent = async (store: EventStore, stream: string, after: BilledUsageCursor, from: number, end: number, billedIn: (event: StoredEvent) => BilledUsageEvent[]) => {
  for (const revision of after.revisions) {
    if (revision < from || revision >= end) continue;
    const [event] = await store.readStream(stream, revision, 1);
    const billed = event ? billedIn(event) : [];
    const at = billed.findIndex((usage) => usage.eventId === after.eventId);
    if (at >= 0) return { revision, rest: billed.slice(at + 1) };
  }
  return null;
};
