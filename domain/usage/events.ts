import { z } from 'zod';
import type { EventDefinition } from '../shared/event-definition';

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

/** The events of one request for one subscription, stored together (one append). */
const recorded = z.object({
  subscriptionId: z.string(),
  organisationId: z.string(),
  events: z.array(recordedUsage),
});

/** What one meter reported in a billed period: the exact total and how many events made it. */
export const billedMeterUsage = z.object({ meterId: z.string(), quantity: z.string(), events: z.number().int() });
export type BilledMeterUsage = z.infer<typeof billedMeterUsage>;

/**
 * A usage period billed: usage dated before its end can no longer be reported. Appended by the usage
 * close in the usage stream, with the totals it billed (so a retry after a crash raises the same
 * invoice, and the values read them); `invoiceId` null when the period billed nothing.
 */
const periodBilled = z.object({
  subscriptionId: z.string(),
  periodStart: z.string(),
  /** End (exclusive) of the usage billed: the period's end, or the day after the end date of a subscription ending inside it. */
  periodEnd: z.string(),
  invoiceId: z.string().nullable(),
  billedAt: z.string(),
  /** Every meter of the subscription, in its order, with what it reported (0.0000 when nothing). */
  meters: z.array(billedMeterUsage),
});

export type UsageRecorded = { type: 'UsageRecorded'; data: z.infer<typeof recorded> };
export type UsagePeriodBilledData = z.infer<typeof periodBilled>;
export type UsagePeriodBilled = { type: 'UsagePeriodBilled'; data: UsagePeriodBilledData };
export type UsageEvent = UsageRecorded | UsagePeriodBilled;

export const usageEventDefinitions: EventDefinition[] = [
  { type: 'UsageRecorded', version: 1, schema: recorded },
  { type: 'UsagePeriodBilled', version: 1, schema: periodBilled },
];

/** A subscription's reported usage, for as long as it lives: its event ids are unique in it. */
export const usageStream = (subscriptionId: string): string => `usage-${subscriptionId}`;
