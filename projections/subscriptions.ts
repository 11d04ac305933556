import { parsePercent } from '../domain/pricing/percent';
import { subscriptionValues } from '../domain/pricing/subscription-values';
import type { SubscriptionCreatedData, SubscriptionEvent } from '../domain/subscription/events';
import type { Projection } from './projection';

export const SUBSCRIPTIONS = 'subscriptions';

/** The Subscription object of the API document, its values computed from its price snapshot. */
export const subscriptionObject = (s: SubscriptionCreatedData, created: string) => ({
  id: s.subscriptionId,
  object: 'subscription' as const,
  customer: s.customerId,
  customer_code: s.customerCode,
  plan: s.planId,
  status: s.status,
  currency: s.currency,
  interval: s.interval,
  timezone: s.timezone,
  start_date: s.startDate,
  renewal_date: s.renewalDate as string | null,
  end_date: s.endDate,
  units: s.units,
  minimum_units: s.minimumUnits,
  discount_percent: s.discountPercent,
  cancel_at_period_end: false,
  end_after_cycles: s.endAfterCycles,
  label: s.label,
  invoice_reference: s.invoiceReference,
  ...subscriptionValues({
    plan: { type: s.pricing.planType, price: s.pricing.price, freeUnits: s.pricing.freeUnits, tiers: s.pricing.tiers },
    units: s.units,
    discount: parsePercent(s.discountPercent) ?? 0n,
    interval: s.interval,
    meters: s.meters.map((m) => ({ model: m.model, price: m.price, includedUnits: m.includedUnits, minimumUnits: m.minimumUnits, tiers: m.tiers })),
  }),
  meters: s.meters.map((m) => ({
    meter: m.meterId,
    meter_code: m.meterCode,
    name: m.name,
    minimum_units: m.minimumUnits,
    plan_minimum_units: m.planMinimumUnits,
  })),
  cpi_enabled: s.cpiEnabled,
  created,
});

export type SubscriptionDoc = ReturnType<typeof subscriptionObject> & { _organisation: string };

export const subscriptionsProjection: Projection = {
  name: 'subscriptions',
  version: 1,
  collections: [SUBSCRIPTIONS],
  indexes: [
    { collection: SUBSCRIPTIONS, fields: ['_organisation', 'created'] },
    { collection: SUBSCRIPTIONS, fields: ['_organisation', 'customer'] },
  ],
  handles: ['SubscriptionCreated'],
  apply: (event, context) => {
    const { data } = event as unknown as SubscriptionEvent;
    context.put(SUBSCRIPTIONS, { ...subscriptionObject(data, event.metadata.businessTime), _organisation: data.organisationId });
    return Promise.resolve();
  },
};
