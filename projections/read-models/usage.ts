import { z } from 'zod';
import { formatQuantity, storedTotal } from '../../domain/pricing/quantity';
import { groupQuantity } from '../../domain/usage/decider';
import type { UsageEvent } from '../../domain/usage/events';
import type { Projection } from '../engine/projection';

export const USAGE_PERIODS = 'usage_periods';

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
  /** The usage stream's revision of the first event in it: where a read of the events it sums starts (absent from version 3's documents). */
  first_revision: z.number().int().optional(),
  /** Once the period is billed: the revision of its billing (where a read of its events ends) and the invoice it raised (null: none). */
  billed_revision: z.number().int().optional(),
  invoice: z.string().nullable().optional(),
  _organisation: z.string(),
});
export type UsagePeriodDoc = z.infer<typeof usagePeriodDocument>;

export const usagePeriodId = (subscriptionId: string, meterId: string, periodStart: string): string => `${subscriptionId}:${meterId}:${periodStart}`;

export const usageProjection: Projection<UsageEvent> = {
  name: 'usage',
  // Version 3: without the event ids (kept in memory by `UsageEventIdIndex`); earlier generations are rebuilt without them.
  // Version 4: with each period's first revision. Version 5: with its billing's revision and invoice.
  version: 5,
  collections: [USAGE_PERIODS],
  // Version 2 wrote each usage event id here; a data directory it made still holds them.
  retired: ['usage_event_ids'],
  indexes: [{ collection: USAGE_PERIODS, fields: ['subscription', 'period_start'] }],
  handles: ['UsageRecorded', 'UsagePeriodBilled'],
  apply: async (event, context) => {
    if (event.type === 'UsagePeriodBilled') {
      const { subscriptionId, periodStart, invoiceId } = event.data;
      // A meter that reported nothing in the period has no document, and nothing to read.
      for (const meter of event.data.meters) {
        const current = await context.get<UsagePeriodDoc>(USAGE_PERIODS, usagePeriodId(subscriptionId, meter.meterId, periodStart));
        if (current) context.put(USAGE_PERIODS, { ...current, billed_revision: event.revision, invoice: invoiceId });
      }
      return;
    }
    const { data } = event;
    const { subscriptionId, organisationId } = data;
    // One group per meter and period: its total is one document, read and written once.
    for (const group of data.groups) {
      const id = usagePeriodId(subscriptionId, group.meterId, group.periodStart);
      const current = (await context.get<UsagePeriodDoc>(USAGE_PERIODS, id)) ?? {
        id,
        subscription: subscriptionId,
        meter: group.meterId,
        meter_code: group.meterCode,
        period_start: group.periodStart,
        period_end: group.periodEnd,
        quantity: formatQuantity(0n),
        events: 0,
        first_revision: event.revision,
        _organisation: organisationId,
      };
      const added = groupQuantity(group.events);
      context.put(USAGE_PERIODS, { ...current, quantity: formatQuantity(storedTotal(current.quantity) + added), events: current.events + group.events.length });
    }
  },
};
