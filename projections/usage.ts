import { z } from 'zod';
import { formatQuantity, quantityOf } from '../domain/pricing/quantity';
import type { UsageRecorded } from '../domain/usage/events';
import type { Projection } from './projection';

export const USAGE_PERIODS = 'usage_periods';
export const USAGE_EVENT_IDS = 'usage_event_ids';

/**
 * What a subscription reported for one meter in one billing period: closing the period reads this
 * one document instead of summing its events. Internal (no route shows reported usage).
 */
export const usagePeriodDocument = z.object({
  id: z.string(),
  subscription: z.string(),
  meter: z.string(),
  meter_code: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  /** Exact sum of the quantities, 4 places. */
  quantity: z.string(),
  events: z.number().int(),
  _organisation: z.string(),
});
export type UsagePeriodDoc = z.infer<typeof usagePeriodDocument>;

/** Which subscription an organisation's event id is stored on: the commands' lookup for ids reused across subscriptions. */
export const usageEventIdDocument = z.object({ id: z.string(), subscription: z.string(), _organisation: z.string() });
export type UsageEventIdDoc = z.infer<typeof usageEventIdDocument>;

export const usagePeriodId = (subscriptionId: string, meterId: string, periodStart: string): string => `${subscriptionId}:${meterId}:${periodStart}`;
/** Organisation ids hold no ':', so the first one ends the organisation whatever the client's id holds. */
export const usageEventIdKey = (organisationId: string, eventId: string): string => `${organisationId}:${eventId}`;

export const usageProjection: Projection = {
  name: 'usage',
  version: 1,
  collections: [USAGE_PERIODS, USAGE_EVENT_IDS],
  indexes: [{ collection: USAGE_PERIODS, fields: ['subscription', 'period_start'] }],
  handles: ['UsageRecorded'],
  apply: async (event, context) => {
    const { data } = event as unknown as UsageRecorded;
    const totals = new Map<string, UsagePeriodDoc>();
    for (const usage of data.events) {
      context.put(USAGE_EVENT_IDS, { id: usageEventIdKey(data.organisationId, usage.eventId), subscription: data.subscriptionId, _organisation: data.organisationId });
      const id = usagePeriodId(data.subscriptionId, usage.meterId, usage.periodStart);
      const current =
        totals.get(id) ??
        (await context.get<UsagePeriodDoc>(USAGE_PERIODS, id)) ?? {
          id,
          subscription: data.subscriptionId,
          meter: usage.meterId,
          meter_code: usage.meterCode,
          period_start: usage.periodStart,
          period_end: usage.periodEnd,
          quantity: formatQuantity(0n),
          events: 0,
          _organisation: data.organisationId,
        };
      totals.set(id, { ...current, quantity: formatQuantity(quantityOf(current.quantity)! + quantityOf(usage.quantity)!), events: current.events + 1 });
    }
    for (const doc of totals.values()) context.put(USAGE_PERIODS, doc);
  },
};
