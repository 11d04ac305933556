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

/** A usage period billed: usage dated before its end can no longer be reported. Appended by the usage close. */
const periodBilled = z.object({
  subscriptionId: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  invoiceId: z.string().nullable(),
});

export type UsageRecorded = { type: 'UsageRecorded'; data: z.infer<typeof recorded> };
export type UsagePeriodBilled = { type: 'UsagePeriodBilled'; data: z.infer<typeof periodBilled> };
export type UsageEvent = UsageRecorded | UsagePeriodBilled;

export const usageEventDefinitions: EventDefinition[] = [
  { type: 'UsageRecorded', version: 1, schema: recorded },
  { type: 'UsagePeriodBilled', version: 1, schema: periodBilled },
];

/** A subscription's reported usage, for as long as it lives: its event ids are unique in it. */
export const usageStream = (subscriptionId: string): string => `usage-${subscriptionId}`;
