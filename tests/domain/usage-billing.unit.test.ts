import { usageInvoice } from '../../domain/invoice/usage-invoice';
import type { SubscriptionCreatedData } from '../../domain/subscription/events';
import { type ExistingSubscription, initialLifecycle } from '../../domain/subscription/lifecycle';
import { type BillUsagePeriod, dueUsagePeriods, finalUsagePeriodStart } from '../../domain/usage/billing';
import { usageDecider } from '../../domain/usage/decider';
import { type RecordedUsage, type UsageEvent, type UsagePeriodBilledData, usageRecordedData } from '../../domain/usage/events';
import { deciderSpec } from '../support/decider-spec';
import { subscriptionMeter, twoBands } from '../support/meter-fixtures';
import { subscriptionCreatedData } from '../support/subscription-fixtures';

/**
 * sub_1 of org_1 in Sydney, monthly from 2026-02-01, 10 % off, billing four meters, one per model:
 * - api_calls, per_unit at 0.0015 past 1000 included calls;
 * - storage_gb, tiered 1–10 at 0.5000 then 0.2500, at least 5 GB a period;
 * - users, volume 1–100 at 2.0000 then 1.5000 for every unit;
 * - projects, stairstep 1–10 for 20.0000, 11–50 for 50.0000, 51+ for 80.0000.
 */
const meters: SubscriptionCreatedData['meters'] = [
  subscriptionMeter('calls', 'API calls', 'per_unit', { price: '0.0015', includedUnits: 1000 }),
  subscriptionMeter('gb', 'Storage', 'tiered', { tiers: twoBands(10, '0.5000', '0.2500'), minimumUnits: 5, planMinimumUnits: 5 }),
  subscriptionMeter('users', 'Active users', 'volume', { tiers: twoBands(100, '2.0000', '1.5000') }),
  subscriptionMeter('projects', 'Projects', 'stairstep', {
    tiers: [
      { fromUnits: 1, toUnits: 10, price: '20.0000' },
      { fromUnits: 11, toUnits: 50, price: '50.0000' },
      { fromUnits: 51, toUnits: null, price: '80.0000' },
    ],
  }),
];

const created = (overrides: Partial<SubscriptionCreatedData> = {}) =>
  subscriptionCreatedData({ discountPercent: '10.00', invoiceReference: 'PO-7', pricing: { planType: 'no_base_fee', price: '0.0000', freeUnits: 0, tiers: [] }, meters, ...overrides });

const subscription = (overrides: Partial<SubscriptionCreatedData> = {}, status: ExistingSubscription['status'] = 'active', endDate: string | null = null): ExistingSubscription => {
  const data = created(overrides);
  return { status, subscription: data, life: { ...initialLifecycle(data), endDate } };
};

/** 2 March 2026, 10:00 in Sydney: the first period (1 Feb – 1 Mar) is over. */
const NOW = '2026-03-01T23:00:00.000Z';

const bill = (overrides: Partial<BillUsagePeriod> = {}): BillUsagePeriod => ({
  type: 'BillUsagePeriod',
  subscription: subscription(),
  meters: overrides.subscription?.subscription.meters ?? meters,
  periodStart: '2026-02-01',
  today: '2026-03-02',
  now: NOW,
  invoiceId: 'inv_usage',
  raisesInvoices: true,
  ...overrides,
});

let n = 0;
const usage = (meterId: string, quantity: string, periodStart = '2026-02-01', periodEnd = '2026-03-01'): RecordedUsage => ({
  eventId: `e${++n}`,
  meterId,
  meterCode: meterId,
  quantity,
  timestamp: '2026-02-10T00:00:00.000Z',
  timestampSent: true,
  periodStart,
  periodEnd,
});
const recorded = (...events: RecordedUsage[]): UsageEvent => ({ type: 'UsageRecorded', data: usageRecordedData('sub_1', 'org_1', NOW, events) });

const billed = (data: Partial<UsagePeriodBilledData> & Pick<UsagePeriodBilledData, 'meters'>): UsageEvent => ({
  type: 'UsagePeriodBilled',
  data: { subscriptionId: 'sub_1', periodStart: '2026-02-01', periodEnd: '2026-03-01', invoiceId: 'inv_usage', billedAt: NOW, ...data },
});
const totals = (calls: string, gb: string, users: string, projects: string, events: [number, number, number, number]) => [
  { meterId: 'mtr_calls', quantity: calls, events: events[0] },
  { meterId: 'mtr_gb', quantity: gb, events: events[1] },
  { meterId: 'mtr_users', quantity: users, events: events[2] },
  { meterId: 'mtr_projects', quantity: projects, events: events[3] },
];
const nothing = totals('0.0000', '0.0000', '0.0000', '0.0000', [0, 0, 0, 0]);

const spec = deciderSpec(usageDecider);

describe('billing a closed usage period: given usage, when BillUsagePeriod, then UsagePeriodBilled', () => {
  const reported = [
    recorded(usage('mtr_calls', '1500.5000'), usage('mtr_gb', '2.2500'), usage('mtr_users', '120.3000')),
    recorded(usage('mtr_calls', '1000.0000'), usage('mtr_projects', '10.0001')),
    // Another period's usage is not this period's.
    recorded(usage('mtr_calls', '99999.0000', '2026-03-01', '2026-04-01')),
  ];

  it('records every meter’s exact total from the stream and the invoice the period raises', () => {
    spec(reported)
      .when(bill())
      .then([billed({ meters: totals('2500.5000', '2.2500', '120.3000', '10.0001', [2, 1, 1, 1]) })]);
  });

  it('raises one usage line per billed meter, priced by its model, net of the discount (worked example)', () => {
    const invoice = usageInvoice({
      subscription: created(),
      billed: { subscriptionId: 'sub_1', periodStart: '2026-02-01', periodEnd: '2026-03-01', invoiceId: 'inv_usage', billedAt: NOW, meters: totals('2500.5000', '2.2500', '120.3000', '10.0001', [2, 1, 1, 1]) },
      lineIdOf: (meterId) => `il_${meterId}`,
      paymentTermsDays: 14,
    });
    const line = (meterId: string, usageQuantity: string, units: number, amount: string, discountAmount: string, chargeAmount: string, description: string, name: string) => ({
      lineId: `il_${meterId}`,
      type: 'usage',
      revenueType: 'usage',
      meterId,
      usageQuantity,
      name,
      description,
      units,
      quantity: '1',
      unitAmount: chargeAmount,
      amount,
      discountAmount,
      chargeAmount,
      // Midnight of 1 Feb in Sydney (UTC+11).
      effectiveDate: '2026-01-31T13:00:00.000Z',
      account: 'usage_revenue',
    });
    expect(invoice).toEqual({
      invoiceId: 'inv_usage',
      organisationId: 'org_1',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      currency: 'GBP',
      reference: 'PO-7',
      invoiceDate: NOW,
      dueDate: '2026-03-15T23:00:00.000Z',
      lines: [
        // per_unit: q = 2500.5, 1000 included → 1500.5 priced × 0.0015 = 2.25075 → 2.2508; 10 % = 0.22508 → 0.2251.
        line('mtr_calls', '1500.5000', 1501, '2.2508', '0.2251', '2.0257', 'Usage 2026-02-01 to 2026-03-01: 2500.5000 reported, 1000 included', 'API calls'),
        // tiered: 2.25 reported is below the minimum 5 → q = 5, all in the first band: 5 × 0.5 = 2.5000; 10 % = 0.2500.
        line('mtr_gb', '5.0000', 5, '2.5000', '0.2500', '2.2500', 'Usage 2026-02-01 to 2026-03-01: 2.2500 reported, minimum 5', 'Storage'),
        // volume: 120.3 falls in 101+ → every unit at 1.5: 180.45; 10 % = 18.045 → 18.0450.
        line('mtr_users', '120.3000', 121, '180.4500', '18.0450', '162.4050', 'Usage 2026-02-01 to 2026-03-01: 120.3000 reported', 'Active users'),
        // stairstep: 10.0001 is past 10 → the 11–50 step, one price 50.0000; 10 % = 5.0000.
        line('mtr_projects', '10.0001', 11, '50.0000', '5.0000', '45.0000', 'Usage 2026-02-01 to 2026-03-01: 10.0001 reported', 'Projects'),
      ],
      // 2.0257 + 2.2500 + 162.4050 + 45.0000
      subtotal: '211.6807',
    });
  });

  it('bills a period whose total is past the largest quantity one event may report', () => {
    const max = '999999999999.9999';
    spec([recorded(usage('mtr_calls', max)), recorded(usage('mtr_calls', max))])
      .when(bill())
      .then([billed({ meters: totals('1999999999999.9998', '0.0000', '0.0000', '0.0000', [2, 0, 0, 0]) })]);
    const invoice = usageInvoice({
      subscription: created(),
      billed: { subscriptionId: 'sub_1', periodStart: '2026-02-01', periodEnd: '2026-03-01', invoiceId: 'inv_usage', billedAt: NOW, meters: totals('1999999999999.9998', '0.0000', '0.0000', '0.0000', [2, 0, 0, 0]) },
      lineIdOf: (meterId) => `il_${meterId}`,
      paymentTermsDays: 14,
    });
    // 1999999999999.9998 reported, 1000 included: 1999999998999.9998 × 0.0015 = 2999999998.49999997 → 2999999998.5000.
    expect(invoice.lines[0]).toMatchObject({
      usageQuantity: '1999999998999.9998',
      amount: '2999999998.5000',
      description: 'Usage 2026-02-01 to 2026-03-01: 1999999999999.9998 reported, 1000 included',
    });
  });

  it('bills a meter’s minimum alone: a period with no usage still raises an invoice when a minimum prices above zero', () => {
    spec([]).when(bill()).then([billed({ meters: nothing })]);
    const invoice = usageInvoice({
      subscription: created(),
      billed: { subscriptionId: 'sub_1', periodStart: '2026-02-01', periodEnd: '2026-03-01', invoiceId: 'inv_usage', billedAt: NOW, meters: nothing },
      lineIdOf: (meterId) => `il_${meterId}`,
      paymentTermsDays: 0,
    });
    // Only storage (minimum 5 GB × 0.5 = 2.5000, 10 % off) bills; the other meters reported nothing and have no minimum.
    expect(invoice.lines.map((l) => [l.meterId, l.usageQuantity, l.units, l.amount, l.chargeAmount])).toEqual([['mtr_gb', '5.0000', 5, '2.5000', '2.2500']]);
    expect(invoice.subtotal).toBe('2.2500');
  });

  it('raises no invoice for a period that bills nothing: no usage and no minimum, or usage within the included units', () => {
    const callsOnly = { meters: [meters[0]!] };
    spec([]).when(bill({ subscription: subscription(callsOnly) })).then([billed({ invoiceId: null, meters: [{ meterId: 'mtr_calls', quantity: '0.0000', events: 0 }] })]);
    // 999.9999 calls of 1000 included: a line would be 0.0000, so nothing is invoiced.
    spec([recorded(usage('mtr_calls', '999.9999'))])
      .when(bill({ subscription: subscription(callsOnly) }))
      .then([billed({ invoiceId: null, meters: [{ meterId: 'mtr_calls', quantity: '999.9999', events: 1 }] })]);
  });

  it('raises an invoice at full discount: the lines bill before discount, the subtotal is zero', () => {
    spec(reported).when(bill({ subscription: subscription({ discountPercent: '100.00' }) })).then([billed({ meters: totals('2500.5000', '2.2500', '120.3000', '10.0001', [2, 1, 1, 1]) })]);
  });

  it('bills the period but raises no invoice in Setup Mode', () => {
    spec(reported)
      .when(bill({ raisesInvoices: false }))
      .then([billed({ invoiceId: null, meters: totals('2500.5000', '2.2500', '120.3000', '10.0001', [2, 1, 1, 1]) })]);
  });

  it('bills a period once: billed again, it appends nothing, whatever was reported or changed since', () => {
    const first = billed({ meters: totals('2500.5000', '2.2500', '120.3000', '10.0001', [2, 1, 1, 1]) });
    spec([...reported, first]).when(bill()).then([]);
    spec([...reported, first]).when(bill({ raisesInvoices: false, subscription: subscription({}, 'ended', '2026-02-10') })).then([]);
  });

  it('bills an ended subscription’s final period at once, up to its end date (invoice_usage_now)', () => {
    // Ended now on 14 Feb: usage dated up to and including the end date, so the period billed ends on the 15th.
    spec([recorded(usage('mtr_users', '3.0000'))])
      .when(bill({ subscription: subscription({}, 'ended', '2026-02-14'), today: '2026-02-14' }))
      .then([billed({ periodEnd: '2026-02-15', meters: totals('0.0000', '0.0000', '3.0000', '0.0000', [0, 0, 1, 0]) })]);
  });

  it('refuses a period that is not over: 409 usage_period_open (an active subscription on its last day, or an end date still ahead)', () => {
    spec([]).when(bill({ today: '2026-02-28' })).thenRefuses('usage_period_open');
    // Set to end on 20 Feb but still active: the period bills from the 21st.
    spec([]).when(bill({ subscription: subscription({}, 'active', '2026-02-20'), today: '2026-02-20' })).thenRefuses('usage_period_open');
  });

  it('refuses a date that does not start a usage period, one before the start and one after the end date: 422, param period_start', () => {
    spec([]).when(bill({ periodStart: '2026-02-02' })).thenRefuses('invalid_parameter', 'period_start');
    spec([]).when(bill({ periodStart: '2026-01-01' })).thenRefuses('invalid_parameter', 'period_start');
    spec([]).when(bill({ periodStart: '2026-03-01', today: '2026-05-01', subscription: subscription({}, 'ended', '2026-02-14') })).thenRefuses('invalid_parameter', 'period_start');
  });

  it('bills month-end anchored periods by the calendar: from 31 Jan, the second period starts on 28 Feb', () => {
    const anchored = { startDate: '2026-01-31', currentPeriodStart: '2026-01-31', renewalDate: '2026-02-28' };
    spec([])
      .when(bill({ subscription: subscription(anchored), periodStart: '2026-02-28', today: '2026-03-31' }))
      .then([billed({ periodStart: '2026-02-28', periodEnd: '2026-03-31', meters: nothing })]);
    spec([]).when(bill({ subscription: subscription(anchored), periodStart: '2026-02-28', today: '2026-03-30' })).thenRefuses('usage_period_open');
  });

  it('ends a subscription set to end at period end with the period before its end date (the renewal date starts no period of its own)', () => {
    // Set to end on its renewal date 1 March (still active, or completed): the last usage period is 1 Feb – 1 Mar.
    for (const status of ['active', 'complete'] as const) {
      const ending = subscription({}, status, '2026-03-01');
      expect(finalUsagePeriodStart(ending)).toBe('2026-02-01');
      spec([]).when(bill({ subscription: ending, periodStart: '2026-03-01', today: '2026-03-05' })).thenRefuses('invalid_parameter', 'period_start');
      spec([]).when(bill({ subscription: ending })).then([billed({ meters: nothing })]);
    }
    // Ended now on 1 March: that day is its last, in the period 1 Mar – 1 Apr, billed up to 2 March.
    const endedNow = subscription({}, 'ended', '2026-03-01');
    expect(finalUsagePeriodStart(endedNow)).toBe('2026-03-01');
    spec([]).when(bill({ subscription: endedNow, periodStart: '2026-03-01', today: '2026-03-01' })).then([billed({ periodStart: '2026-03-01', periodEnd: '2026-03-02', meters: nothing })]);
    // Ended now on its start date (a pending one ended before it began counts its first day); no meters or no end: no final period.
    expect(finalUsagePeriodStart(subscription({}, 'ended', '2026-02-01'))).toBe('2026-02-01');
    expect(finalUsagePeriodStart(subscription({}, 'ended', '2026-01-20'))).toBeNull();
    expect(finalUsagePeriodStart(subscription({ meters: [] }, 'ended', '2026-02-10'))).toBeNull();
    expect(finalUsagePeriodStart(subscription())).toBeNull();
  });
});

describe('usage periods due (the scheduler’s close): due = usage end + usage_grace_days', () => {
  const starts = (due: readonly { periodStart: string }[]) => due.map((d) => d.periodStart);
  const none = new Map<string, unknown>();

  it('lists each closed period not billed once its grace has passed, oldest first', () => {
    // Grace 1 day: 1 Feb – 1 Mar is due on 2 March, not on 1 March.
    expect(dueUsagePeriods(subscription(), none, 1, '2026-03-01')).toEqual([]);
    expect(dueUsagePeriods(subscription(), none, 1, '2026-03-02')).toEqual([{ periodStart: '2026-02-01', due: '2026-03-02' }]);
    expect(starts(dueUsagePeriods(subscription(), none, 1, '2026-05-10'))).toEqual(['2026-02-01', '2026-03-01', '2026-04-01']);
    const billedTwo = new Map([['2026-02-01', {}], ['2026-03-01', {}]]);
    expect(dueUsagePeriods(subscription(), billedTwo, 1, '2026-05-10')).toEqual([{ periodStart: '2026-04-01', due: '2026-05-02' }]);
    expect(starts(dueUsagePeriods(subscription(), none, 1, '2026-12-31', 2))).toEqual(['2026-02-01', '2026-03-01']);
  });

  it('stops at the final period, and catches the period before one billed at once by invoice_usage_now', () => {
    // Completed at its renewal date 1 April: the last period is 1 Mar – 1 Apr.
    expect(starts(dueUsagePeriods(subscription({}, 'complete', '2026-04-01'), none, 1, '2026-06-01'))).toEqual(['2026-02-01', '2026-03-01']);
    // Ended now on 10 March, billing 1–10 March at once while February was still in its grace: February is still due.
    const ended = subscription({}, 'ended', '2026-03-10');
    expect(dueUsagePeriods(ended, new Map([['2026-03-01', {}]]), 3, '2026-03-10')).toEqual([{ periodStart: '2026-02-01', due: '2026-03-04' }]);
    // Ended now without invoice_usage_now: the final period is due the day after the end date plus the grace.
    expect(dueUsagePeriods(ended, new Map([['2026-02-01', {}]]), 1, '2026-03-12')).toEqual([{ periodStart: '2026-03-01', due: '2026-03-12' }]);
    expect(dueUsagePeriods(subscription({ meters: [] }), none, 1, '2026-12-31')).toEqual([]);
  });

  it('follows month-end anchors: from 31 Jan, periods start 28 Feb and 31 Mar', () => {
    const anchored = subscription({ startDate: '2026-01-31', currentPeriodStart: '2026-01-31', renewalDate: '2026-02-28' });
    expect(dueUsagePeriods(anchored, none, 0, '2026-04-30')).toEqual([
      { periodStart: '2026-01-31', due: '2026-02-28' },
      { periodStart: '2026-02-28', due: '2026-03-31' },
      { periodStart: '2026-03-31', due: '2026-04-30' },
    ]);
  });
});
