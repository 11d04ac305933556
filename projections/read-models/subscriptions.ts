import { z } from 'zod';
import { intervalSchema, tierSchema } from '../../domain/catalogue/types';
import { compareDates } from '../../domain/pricing/calendar';
import { meterPricing } from '../../domain/invoice/usage-invoice';
import { parsePercent } from '../../domain/pricing/percent';
import { storedTotal } from '../../domain/pricing/quantity';
import { subscriptionValues } from '../../domain/pricing/subscription-values';
import { amountAboveMinimum } from '../../domain/pricing/usage-charge';
import { pricingSnapshot, subscriptionMeter, type SubscriptionCreatedData, type SubscriptionEvent } from '../../domain/subscription/events';
import { billedMeterUsage, type UsageEvent } from '../../domain/usage/events';
import { amountOutput } from './amount';
import { listIndexes } from '../../infra/read-store/list-indexes';
import type { Projection } from '../engine/projection';

export const SUBSCRIPTIONS = 'subscriptions';

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'complete', 'ended'] as const;

/** The Subscription object of the API document; `_`-prefixed fields are internal. */
export const subscriptionDocument = z.object({
  id: z.string(),
  object: z.literal('subscription'),
  customer: z.string(),
  customer_code: z.string().nullable(),
  plan: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  currency: z.string(),
  interval: intervalSchema,
  timezone: z.string(),
  start_date: z.string(),
  renewal_date: z.string().nullable(),
  end_date: z.string().nullable(),
  units: z.number().int(),
  minimum_units: z.number().int(),
  discount_percent: z.string(),
  cancel_at_period_end: z.boolean(),
  end_after_cycles: z.number().int().nullable(),
  label: z.string().nullable(),
  invoice_reference: z.string().nullable(),
  renewal_value: amountOutput,
  usage_value: amountOutput,
  usage_value_annual: amountOutput,
  minimum_usage_value: amountOutput,
  meters: z.array(
    z.object({ meter: z.string(), meter_code: z.string(), name: z.string(), minimum_units: z.number().int(), plan_minimum_units: z.number().int() }),
  ),
  cpi_enabled: z.boolean(),
  created: z.string(),
  _organisation: z.string(),
  /** What the values are recomputed from when the units change. */
  _pricing: pricingSnapshot,
  _meters: z.array(subscriptionMeter),
  /** Prices a CPI uplift set for the next period, taken at the renewal. */
  _next_prices: z
    .object({ price: z.string(), tiers: z.array(tierSchema), meters: z.array(z.object({ meterId: z.string(), price: z.string().nullable(), tiers: z.array(tierSchema) })) })
    .nullable()
    .optional(),
  /** What each of the last three closed (billed) usage periods reported per meter, oldest first: `usage_value` is priced from it. */
  _closed_usage: z.array(z.object({ period_start: z.string(), meters: z.array(billedMeterUsage) })),
});
export type SubscriptionDoc = z.infer<typeof subscriptionDocument>;

/** How many closed usage periods `usage_value` averages. */
const CLOSED_PERIODS_VALUED = 3;

/** The values at these units, from the subscription's price snapshot; closed usage priced at the current meter prices. */
const valuesAt = (s: Pick<SubscriptionDoc, 'discount_percent' | 'interval' | '_pricing' | '_meters' | '_closed_usage'>, units: number) =>
  subscriptionValues({
    plan: { type: s._pricing.planType, price: s._pricing.price, freeUnits: s._pricing.freeUnits, tiers: s._pricing.tiers },
    units,
    discount: parsePercent(s.discount_percent) ?? 0n,
    interval: s.interval,
    meters: s._meters.map(meterPricing),
    closedPeriodsAboveMinimum: s._closed_usage.map((period) =>
      s._meters.reduce((total, meter) => {
        const reported = period.meters.find((m) => m.meterId === meter.meterId)?.quantity ?? '0';
        return total + amountAboveMinimum(meterPricing(meter), storedTotal(reported));
      }, 0n),
    ),
  });

/** A usage period billed: it joins the closed periods valued (the last three by start), and the values follow. */
const withClosedUsage = (doc: SubscriptionDoc, billed: UsageEvent<'UsagePeriodBilled'>['data']): SubscriptionDoc => {
  const closed = [...doc._closed_usage.filter((p) => p.period_start !== billed.periodStart), { period_start: billed.periodStart, meters: billed.meters }]
    .sort((a, b) => compareDates(a.period_start, b.period_start))
    .slice(-CLOSED_PERIODS_VALUED);
  const next = { ...doc, _closed_usage: closed };
  return { ...next, ...valuesAt(next, doc.units) };
};

/** A subscription's document, its values computed from its price snapshot. */
const toSubscriptionDocument = (s: SubscriptionCreatedData, created: string): SubscriptionDoc => ({
  id: s.subscriptionId,
  object: 'subscription',
  customer: s.customerId,
  customer_code: s.customerCode,
  plan: s.planId,
  status: s.status,
  currency: s.currency,
  interval: s.interval,
  timezone: s.timezone,
  start_date: s.startDate,
  renewal_date: s.renewalDate,
  end_date: s.endDate,
  units: s.units,
  minimum_units: s.minimumUnits,
  discount_percent: s.discountPercent,
  cancel_at_period_end: false,
  end_after_cycles: s.endAfterCycles,
  label: s.label,
  invoice_reference: s.invoiceReference,
  ...valuesAt({ discount_percent: s.discountPercent, interval: s.interval, _pricing: s.pricing, _meters: s.meters, _closed_usage: [] }, s.units),
  meters: s.meters.map((m) => ({
    meter: m.meterId,
    meter_code: m.meterCode,
    name: m.name,
    minimum_units: m.minimumUnits,
    plan_minimum_units: m.planMinimumUnits,
  })),
  cpi_enabled: s.cpiEnabled,
  created,
  _organisation: s.organisationId,
  _pricing: s.pricing,
  _meters: s.meters,
  _closed_usage: [],
});

/** How each lifecycle event changes the document. */
const applyLifecycle = (doc: SubscriptionDoc, event: Exclude<SubscriptionEvent, { type: 'SubscriptionCreated' }>): SubscriptionDoc => {
  switch (event.type) {
    case 'SubscriptionUnitsChanged':
      return { ...doc, units: event.data.units, ...valuesAt(doc, event.data.units) };
    case 'SubscriptionRenewalInvoiceRaised':
      return doc;
    case 'SubscriptionStarted':
      return { ...doc, status: 'active' };
    case 'SubscriptionCpiUplifted': {
      // The new prices show from the renewal on; the document keeps them for that moment.
      const { price, tiers, meters } = event.data;
      return { ...doc, _next_prices: { price, tiers, meters } };
    }
    case 'SubscriptionRenewed': {
      const next = doc._next_prices;
      if (!next) return { ...doc, renewal_date: event.data.renewalDate };
      const repriced = {
        ...doc,
        renewal_date: event.data.renewalDate,
        _pricing: { ...doc._pricing, price: next.price, tiers: next.tiers },
        _meters: doc._meters.map((meter) => {
          const risen = next.meters.find((m) => m.meterId === meter.meterId);
          return risen ? { ...meter, price: risen.price, tiers: risen.tiers } : meter;
        }),
        _next_prices: null,
      };
      return { ...repriced, ...valuesAt(repriced, repriced.units) };
    }
    case 'SubscriptionCompleted':
      return { ...doc, status: 'complete', renewal_date: null, cancel_at_period_end: false, end_date: event.data.endDate };
    case 'SubscriptionEndScheduled':
      return { ...doc, cancel_at_period_end: true, end_date: event.data.endDate };
    case 'SubscriptionEnded':
      return { ...doc, status: 'ended', cancel_at_period_end: false, end_date: event.data.endDate };
    case 'SubscriptionRestored':
      return { ...doc, status: event.data.status, cancel_at_period_end: false, end_date: null };
    case 'SubscriptionCpiUpliftWithheld':
      return doc;
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

export const subscriptionsProjection: Projection<SubscriptionEvent | UsageEvent<'UsagePeriodBilled'>> = {
  name: 'subscriptions',
  version: 4,
  collections: [SUBSCRIPTIONS],
  indexes: listIndexes(SUBSCRIPTIONS, ['customer', 'customer_code', 'status']),
  handles: [
    'SubscriptionCreated',
    'SubscriptionUnitsChanged',
    'SubscriptionRenewalInvoiceRaised',
    'SubscriptionEndScheduled',
    'SubscriptionEnded',
    'SubscriptionRestored',
    'SubscriptionStarted',
    'SubscriptionCpiUplifted',
    'SubscriptionRenewed',
    'SubscriptionCompleted',
    'UsagePeriodBilled',
  ],
  apply: async (event, context) => {
    if (event.type === 'SubscriptionCreated') {
      context.put(SUBSCRIPTIONS, toSubscriptionDocument(event.data, event.metadata.businessTime));
      return;
    }
    const doc = await context.get<SubscriptionDoc>(SUBSCRIPTIONS, event.data.subscriptionId);
    if (doc) context.put(SUBSCRIPTIONS, event.type === 'UsagePeriodBilled' ? withClosedUsage(doc, event.data) : applyLifecycle(doc, event));
  },
};
