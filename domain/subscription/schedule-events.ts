import { z } from 'zod';
import { tierSchema } from '../catalogue/types';
import { defineEvents, type EventOf } from '../shared/define-events';

/** A pending subscription reached its start date. */
const started = z.object({ subscriptionId: z.string(), startDate: z.string() });

/**
 * CPI raised a `cpi_enabled` subscription's prices for the period starting `periodStart` (the renewal
 * invoice for it bills them; the subscription takes them when it rolls over to that period).
 */
const cpiUplifted = z.object({
  subscriptionId: z.string(),
  periodStart: z.string(),
  year: z.number().int(),
  percent: z.string(),
  price: z.string(),
  tiers: z.array(tierSchema),
  meters: z.array(z.object({ meterId: z.string(), price: z.string().nullable(), tiers: z.array(tierSchema) })),
});

/**
 * A CPI uplift not applied: at its prices a price, the renewal invoice for the period starting
 * `periodStart`, the renewal value or the usage already recorded for a period it prices would pass
 * the largest amount the service computes; `reason` says which.
 * The year counts as applied, so later renewals do not try it again.
 */
const cpiUpliftWithheld = z.object({ subscriptionId: z.string(), periodStart: z.string(), year: z.number().int(), percent: z.string(), reason: z.string() });

/** The subscription rolled over on its renewal date into the period [periodStart, renewalDate). */
const renewed = z.object({ subscriptionId: z.string(), periodStart: z.string(), renewalDate: z.string() });

/** It reached its end date (set to end at period end, or `end_after_cycles` done). */
const completed = z.object({ subscriptionId: z.string(), endDate: z.string() });

export const scheduleEvents = defineEvents({
  SubscriptionStarted: started,
  SubscriptionCpiUplifted: cpiUplifted,
  SubscriptionCpiUpliftWithheld: cpiUpliftWithheld,
  SubscriptionRenewed: renewed,
  SubscriptionCompleted: completed,
});
export type ScheduleEvent<Type extends keyof typeof scheduleEvents = keyof typeof scheduleEvents> = EventOf<typeof scheduleEvents, Type>;
