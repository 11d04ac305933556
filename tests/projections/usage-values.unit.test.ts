import type { SubscriptionCreatedData } from '../../domain/subscription/events';
import { subscriptionsProjection, SUBSCRIPTIONS } from '../../projections/read-models/subscriptions';
import { subscriptionMeter, twoBands } from '../support/meter-fixtures';
import { projectionSpec } from '../support/projection-spec';
import { londonSubscription, londonSubscriptionDocument } from '../support/subscription-fixtures';

/**
 * sub_1 in London, 5 seats at 10.0000, 10 % off, monthly, with two meters:
 * - api_calls per_unit at 0.0100 past 100 included, at least 200 a period: its minimum alone bills
 *   (200 − 100) × 0.01 = 1.0000, 0.9000 net of discount;
 * - storage_gb tiered, 1–10 at 0.5000 then 0.2500, no minimum.
 */
const meters: SubscriptionCreatedData['meters'] = [
  subscriptionMeter('calls', 'API calls', 'per_unit', { meterCode: 'api_calls', price: '0.0100', includedUnits: 100, minimumUnits: 200, planMinimumUnits: 200 }),
  subscriptionMeter('gb', 'Storage', 'tiered', { meterCode: 'storage_gb', tiers: twoBands(10, '0.5000', '0.2500') }),
];
const created = { type: 'SubscriptionCreated', data: { ...londonSubscription, meters } };
const billed = (periodStart: string, periodEnd: string, calls: string, gb: string) => ({
  type: 'UsagePeriodBilled',
  data: {
    subscriptionId: 'sub_1',
    periodStart,
    periodEnd,
    invoiceId: null,
    billedAt: `${periodEnd}T01:00:00.000Z`,
    meters: [
      { meterId: 'mtr_calls', quantity: calls, events: 1 },
      { meterId: 'mtr_gb', quantity: gb, events: 1 },
    ],
  },
});
// Above the minimums, before discount → net of 10 %:
// January: calls 150 (below the minimum: 0) + storage 12 (10 × 0.5 + 2 × 0.25 = 5.5000) = 5.5000 → 4.9500.
const january = billed('2026-01-01', '2026-02-01', '150.0000', '12.0000');
// February: calls 1200.5 → 1100.5 × 0.01 = 11.0050, less the minimum's 1.0000 = 10.0050 → 9.0045.
const february = billed('2026-02-01', '2026-03-01', '1200.5000', '0.0000');
// March: nothing reported → 0.
const march = billed('2026-03-01', '2026-04-01', '0.0000', '0.0000');
// April: calls 300 → 2.0000 − 1.0000 = 1.0000, storage 4 → 2.0000: 3.0000 → 2.7000.
const april = billed('2026-04-01', '2026-05-01', '300.0000', '4.0000');

const document = (usageValue: string, annual: string, closed: ReturnType<typeof billed>[]) => ({
  ...londonSubscriptionDocument,
  // 45.0000 for the seats plus the calls minimum's 0.9000.
  renewal_value: '45.9000',
  minimum_usage_value: '0.9000',
  usage_value: usageValue,
  usage_value_annual: annual,
  meters: [
    { meter: 'mtr_calls', meter_code: 'api_calls', name: 'API calls', minimum_units: 200, plan_minimum_units: 200 },
    { meter: 'mtr_gb', meter_code: 'storage_gb', name: 'Storage', minimum_units: 0, plan_minimum_units: 0 },
  ],
  _meters: meters,
  _closed_usage: closed.map((p) => ({ period_start: p.data.periodStart, meters: p.data.meters })),
});

describe('usage values on the subscription: given billed usage periods, then usage_value and usage_value_annual', () => {
  const spec = projectionSpec(subscriptionsProjection);

  it('is 0.0000 until a usage period has closed', async () => {
    await spec.given([created]).then(SUBSCRIPTIONS, [document('0.0000', '0.0000', [])]);
  });

  it('averages the closed periods so far: one period', async () => {
    // 4.9500; × 12 months = 59.4000.
    await spec.given([created, january]).then(SUBSCRIPTIONS, [document('4.9500', '59.4000', [january])]);
  });

  it('averages the last three closed periods, above the minimums, net of discount, a period with no usage counting as zero', async () => {
    // (4.9500 + 9.0045 + 0) / 3 = 4.6515; × 12 = 55.8180.
    await spec.given([created, january, february, march]).then(SUBSCRIPTIONS, [document('4.6515', '55.8180', [january, february, march])]);
    // April pushes January out: (9.0045 + 0 + 2.7000) / 3 = 3.9015; × 12 = 46.8180.
    await spec.given([created, january, february, march, april]).then(SUBSCRIPTIONS, [document('3.9015', '46.8180', [february, march, april])]);
  });

  it('counts a period once when its billing is delivered again, and by period start whatever order they arrive in', async () => {
    await spec.given([created, march, january, february, march]).then(SUBSCRIPTIONS, [document('4.6515', '55.8180', [january, february, march])]);
  });

  it('values a period whose total is past the largest quantity one event may report', async () => {
    // calls 2,000,000,000,000 → (2,000,000,000,000 − 100) × 0.01 = 19,999,999,999.0000, less the minimum's 1.0000 → 19,999,999,998.0000 → 17,999,999,998.2000 net; × 12.
    const huge = billed('2026-01-01', '2026-02-01', '2000000000000.0000', '0.0000');
    await spec.given([created, huge]).then(SUBSCRIPTIONS, [document('17999999998.2000', '215999999978.4000', [huge])]);
  });

  it('keeps the usage values through a units change (values recomputed at the new units)', async () => {
    const unitsChanged = {
      type: 'SubscriptionUnitsChanged',
      data: { subscriptionId: 'sub_1', changeId: 'c1', changedAt: '2026-02-02T00:00:00.000Z', previousUnits: 5, units: 8, prorate: false, prorationBehaviour: null, effectiveDate: null, document: null, periodStart: '2026-02-01', renewalDate: '2026-03-01', periodUnits: 5, proration: null, invoiceId: null, creditNoteId: null, creditedInvoiceId: null, renewalAdjustment: null },
    };
    // 8 seats: 80.0000 → 72.0000, + 0.9000.
    await spec.given([created, january, unitsChanged]).then(SUBSCRIPTIONS, [{ ...document('4.9500', '59.4000', [january]), units: 8, renewal_value: '72.9000' }]);
  });
});
