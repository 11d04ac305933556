import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';

/** One usage event as stored: its quantity exact (4 places) and the billing period it counts in. */
export const recordedUsage = z.object({
  eventId: z.string(),
  meterId: z.string(),
  meterCode: z.string(),
  quantity: z.string(),
  /** The instant it counts at: the one sent, or the organisation's clock when none was. */
  timestamp: z.string(),
  /** Whether the client sent the timestamp: a resend without one is the same event, whatever the clock says. */
  timestampSent: z.boolean(),
  periodStart: z.string(),
  periodEnd: z.string(),
});
export type RecordedUsage = z.infer<typeof recordedUsage>;

/** Version 1: the events of one request for one subscription, each with every field (one append). */
const recordedV1 = z.object({
  subscriptionId: z.string(),
  organisationId: z.string(),
  events: z.array(recordedUsage),
});

/**
 * One stored event of a group: `timestamp` only when the client sent one (else it counts at the
 * batch's `countedAt`); `timestampSent: false` only beside a timestamp that was not sent and is not
 * `countedAt` (which no request makes; a version 1 event upcast could).
 */
const storedEvent = z.object({
  eventId: z.string(),
  quantity: z.string(),
  timestamp: z.string().optional(),
  timestampSent: z.literal(false).optional(),
});

type StoredEvent = z.infer<typeof storedEvent>;

/** The timestamp a stored event was sent with; undefined when it was sent without one. */
export const sentTimestamp = (event: StoredEvent): string | undefined => (event.timestampSent === undefined ? event.timestamp : undefined);

/** A request's events of one meter in one period, in the order sent: what they share is stored once. */
const recordedGroup = z.object({
  meterId: z.string(),
  meterCode: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  events: z.array(storedEvent),
});

/**
 * The events of one request for one subscription, stored together (one append), grouped by meter
 * and period: a batch of 100 is about a fifth of its version 1 size, which every reader of the log parses.
 * `recordedUsages` reads them back one by one.
 */
const recorded = z.object({
  subscriptionId: z.string(),
  organisationId: z.string(),
  /** When the events sent without a timestamp count: the organisation's clock at the request. */
  countedAt: z.string(),
  groups: z.array(recordedGroup),
});
export type UsageRecordedData = z.infer<typeof recorded>;

/** The stored form of a request's accepted events (`countedAt` the request's clock); `recordedUsages` gives them back exactly. */
export const usageRecordedData = (subscriptionId: string, organisationId: string, countedAt: string, events: readonly RecordedUsage[]): UsageRecordedData => {
  const groups = new Map<string, z.infer<typeof recordedGroup>>();
  let last: z.infer<typeof recordedGroup> | undefined;
  for (const usage of events) {
    // A batch's events mostly share their meter and period: the previous event's group first.
    let group = last && last.meterId === usage.meterId && last.meterCode === usage.meterCode && last.periodStart === usage.periodStart && last.periodEnd === usage.periodEnd ? last : undefined;
    if (!group) {
      const key = `${usage.meterId}\u0000${usage.meterCode}\u0000${usage.periodStart}\u0000${usage.periodEnd}`;
      group = groups.get(key);
      if (!group) groups.set(key, (group = { meterId: usage.meterId, meterCode: usage.meterCode, periodStart: usage.periodStart, periodEnd: usage.periodEnd, events: [] }));
      last = group;
    }
    const { eventId, quantity, timestamp } = usage;
    if (usage.timestampSent) group.events.push({ eventId, quantity, timestamp });
    else group.events.push(timestamp === countedAt ? { eventId, quantity } : { eventId, quantity, timestamp, timestampSent: false });
  }
  return { subscriptionId, organisationId, countedAt, groups: [...groups.values()] };
};

/** The stored events one by one, as they were accepted (in the order sent within each meter and period). */
export const recordedUsages = (data: UsageRecordedData): RecordedUsage[] =>
  data.groups.flatMap(({ meterId, meterCode, periodStart, periodEnd, events }) =>
    events.map((event) => ({
      eventId: event.eventId,
      meterId,
      meterCode,
      quantity: event.quantity,
      timestamp: event.timestamp ?? data.countedAt,
      timestampSent: sentTimestamp(event) !== undefined,
      periodStart,
      periodEnd,
    })),
  );

/** Version 1 to 2: grouped, counted at the time its first event sent without a timestamp counts (every such event of a request shares it). */
const upcastRecordedV1 = (data: unknown): UsageRecordedData => {
  const { subscriptionId, organisationId, events } = recordedV1.parse(data);
  const countedAt = (events.find((usage) => !usage.timestampSent) ?? events[0])?.timestamp ?? '';
  return usageRecordedData(subscriptionId, organisationId, countedAt, events);
};

/** What one meter reported in a billed period: the exact total and how many events made it. */
export const billedMeterUsage = z.object({ meterId: z.string(), quantity: z.string(), events: z.number().int() });
export type BilledMeterUsage = z.infer<typeof billedMeterUsage>;

/**
 * A usage period billed: usage dated before its end can no longer be reported. Appended by the usage
 * close in the usage stream, with the totals it billed (so a retry after a crash raises the same
 * invoice, and the values read them); `invoiceId` null when the period billed nothing.
 */
export const usagePeriodBilledData = z.object({
  subscriptionId: z.string(),
  periodStart: z.string(),
  /** End (exclusive) of the usage billed: the period's end, or the day after the end date of a subscription ending inside it. */
  periodEnd: z.string(),
  invoiceId: z.string().nullable(),
  billedAt: z.string(),
  /** Every meter of the subscription, in its order, with what it reported (0.0000 when nothing). */
  meters: z.array(billedMeterUsage),
});

export type UsagePeriodBilledData = z.infer<typeof usagePeriodBilledData>;

export const usageEvents = defineEvents({
  UsageRecorded: { version: 2, schema: recorded, upcasters: { 1: upcastRecordedV1 } },
  UsagePeriodBilled: usagePeriodBilledData,
});
export type UsageEvent<Type extends keyof typeof usageEvents = keyof typeof usageEvents> = EventOf<typeof usageEvents, Type>;

/** A subscription's reported usage, for as long as it lives: its event ids are unique in it. */
export const usageStream = (subscriptionId: string): string => `usage-${subscriptionId}`;
