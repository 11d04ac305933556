import { renewalInvoice } from '../../domain/invoice/renewal-invoice';
import { subscriptionDecider } from '../../domain/subscription/decider';
import type { SubscriptionCreatedData, SubscriptionEvent } from '../../domain/subscription/events';
import type { ExistingSubscription } from '../../domain/subscription/lifecycle';
import type { SubscriptionUnitsChangedData } from '../../domain/subscription/lifecycle-events';
import { dueSteps, type RunScheduledStep, scheduleViewOf, type StepKind } from '../../domain/subscription/schedule';
import { deciderSpec } from '../support/decider-spec';
import { subscriptionCreatedData } from '../support/subscription-fixtures';

const spec = deciderSpec(subscriptionDecider);

/** sub_1: 5 seats at 10.0000, monthly from 31 Jan 2026 in London (a month-end anchor). */
const created = (overrides: Partial<SubscriptionCreatedData> = {}): SubscriptionEvent => ({
  type: 'SubscriptionCreated',
  data: subscriptionCreatedData({
    timezone: 'Europe/London',
    startDate: '2026-01-31',
    currentPeriodStart: '2026-01-31',
    renewalDate: '2026-02-28',
    ...overrides,
  }),
});

const step = (kind: StepKind, period: string, today: string, more: Partial<RunScheduledStep> = {}): RunScheduledStep => ({
  type: 'RunScheduledStep',
  step: kind,
  period,
  today,
  renewalLeadDays: 7,
  setupMode: false,
  renewalInvoiceId: `inv_renewal_${period}`,
  cpi: null,
  usageFrom: new Map(),
  ...more,
});

const fold = (events: SubscriptionEvent[]): ExistingSubscription => {
  const state = events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
  if (state.status === 'none') throw new Error('no subscription');
  return state;
};

const raised = (periodStart: string, periodEnd: string, extra: Partial<Extract<SubscriptionEvent, { type: 'SubscriptionRenewalInvoiceRaised' }>['data']> = {}): SubscriptionEvent => ({
  type: 'SubscriptionRenewalInvoiceRaised',
  data: { subscriptionId: 'sub_1', invoiceId: `inv_renewal_${periodStart}`, periodStart, periodEnd, units: 5, adjustments: [], ...extra },
});

const renewed = (periodStart: string, renewalDate: string): SubscriptionEvent => ({ type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1', periodStart, renewalDate } });

describe('dueSteps: what is due and when', () => {
  it('a pending subscription starts on its start date; the renewal invoice is due lead days before the renewal date', () => {
    const view = scheduleViewOf(fold([created({ status: 'pending', startDate: '2026-03-10', currentPeriodStart: '2026-03-10', renewalDate: '2026-04-10' })]));
    expect(dueSteps(view, 7)).toEqual([
      { kind: 'start', date: '2026-03-10', period: '2026-03-10' },
      // 10 Apr − 7 days = 3 Apr.
      { kind: 'renewal_invoice', date: '2026-04-03', period: '2026-04-10' },
      { kind: 'renewal', date: '2026-04-10', period: '2026-04-10' },
    ]);
  });

  it('a lead of 0 raises the renewal invoice on the renewal date, before the roll-over', () => {
    expect(dueSteps(scheduleViewOf(fold([created()])), 0).map((s) => [s.kind, s.date])).toEqual([
      ['renewal_invoice', '2026-02-28'],
      ['renewal', '2026-02-28'],
    ]);
  });

  it('a subscription ending on its renewal date gets no renewal invoice and no renewal, only its completion', () => {
    const ending: SubscriptionEvent = { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'op_1', endDate: '2026-02-28', removals: [] } };
    expect(dueSteps(scheduleViewOf(fold([created(), ending])), 7)).toEqual([{ kind: 'complete', date: '2026-02-28', period: '2026-02-28' }]);
    // end_after_cycles: 2 sets the end date to the start of the third period, 31 Mar.
    const twoCycles = fold([created({ endDate: '2026-03-31', endAfterCycles: 2 }), raised('2026-02-28', '2026-03-31'), renewed('2026-02-28', '2026-03-31')]);
    expect(dueSteps(scheduleViewOf(twoCycles), 7)).toEqual([{ kind: 'complete', date: '2026-03-31', period: '2026-03-31' }]);
  });

  it('an ended subscription has nothing due', () => {
    const ended: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId: 'sub_1', operationId: 'op_1', endedAt: '2026-02-10T10:00:00.000Z', endDate: '2026-02-10', invoiceUsageNow: false, removals: [] },
    };
    expect(dueSteps(scheduleViewOf(fold([created(), ended])), 7)).toEqual([]);
  });
});

describe('RunScheduledStep', () => {
  it('starts a pending subscription on its start date, not the day before, and only once', () => {
    const pending = created({ status: 'pending', startDate: '2026-03-10', currentPeriodStart: '2026-03-10', renewalDate: '2026-04-10' });
    spec([pending]).when(step('start', '2026-03-10', '2026-03-09')).then([]);
    const started: SubscriptionEvent = { type: 'SubscriptionStarted', data: { subscriptionId: 'sub_1', startDate: '2026-03-10' } };
    spec([pending]).when(step('start', '2026-03-10', '2026-03-10')).then([started]);
    spec([pending, started]).when(step('start', '2026-03-10', '2026-03-11')).then([]);
  });

  it('raises the renewal invoice for the next period 7 days ahead, anchored on 31 Jan: 28 Feb → 31 Mar', () => {
    spec([created()]).when(step('renewal_invoice', '2026-02-28', '2026-02-20')).then([]);
    spec([created()]).when(step('renewal_invoice', '2026-02-28', '2026-02-21')).then([raised('2026-02-28', '2026-03-31')]);
    // Twice (a second scheduler, a retry) raises nothing more.
    spec([created(), raised('2026-02-28', '2026-03-31')]).when(step('renewal_invoice', '2026-02-28', '2026-02-22')).then([]);
  });

  it('rolls over on the renewal date, keeping the anchor day (28 Feb → 31 Mar → 30 Apr), and never before its renewal invoice', () => {
    spec([created()]).when(step('renewal', '2026-02-28', '2026-02-28')).then([]);
    spec([created(), raised('2026-02-28', '2026-03-31')]).when(step('renewal', '2026-02-28', '2026-02-27')).then([]);
    spec([created(), raised('2026-02-28', '2026-03-31')]).when(step('renewal', '2026-02-28', '2026-02-28')).then([renewed('2026-02-28', '2026-03-31')]);
    const after = [created(), raised('2026-02-28', '2026-03-31'), renewed('2026-02-28', '2026-03-31')];
    spec(after).when(step('renewal', '2026-02-28', '2026-03-01')).then([]);
    spec(after).when(step('renewal_invoice', '2026-03-31', '2026-03-24')).then([raised('2026-03-31', '2026-04-30')]);
  });

  it('in Setup Mode raises no renewal invoice and rolls over without one', () => {
    spec([created()]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { setupMode: true })).then([]);
    spec([created()]).when(step('renewal', '2026-02-28', '2026-02-28', { setupMode: true })).then([renewed('2026-02-28', '2026-03-31')]);
  });

  it('completes on the end date a subscription set to end at period end', () => {
    const ending: SubscriptionEvent = { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'op_1', endDate: '2026-02-28', removals: [] } };
    spec([created(), ending]).when(step('renewal_invoice', '2026-02-28', '2026-02-21')).then([]);
    spec([created(), ending]).when(step('complete', '2026-02-28', '2026-02-27')).then([]);
    spec([created(), ending]).when(step('complete', '2026-02-28', '2026-02-28')).then([{ type: 'SubscriptionCompleted', data: { subscriptionId: 'sub_1', endDate: '2026-02-28' } }]);
  });

  it('bills the charge_on_renewal adjustments recorded so far, and only once', () => {
    const change: SubscriptionEvent = { type: 'SubscriptionUnitsChanged', data: unitsChanged('chg_1', '16.7857') };
    spec([created(), change]).when(step('renewal_invoice', '2026-02-28', '2026-02-21')).then([
      raised('2026-02-28', '2026-03-31', { units: 8, adjustments: [{ changeId: 'chg_1', amount: '16.7857' }] }),
    ]);
    const state = fold([created(), change, raised('2026-02-28', '2026-03-31', { units: 8, adjustments: [{ changeId: 'chg_1', amount: '16.7857' }] })]);
    expect(state.life.renewalAdjustments).toEqual([]);
  });

  it('CPI: a cpi_enabled subscription’s prices rise by the latest percentage, rounded to 4 places, once per CPI year', () => {
    const cpiSubscription = created({
      cpiEnabled: true,
      pricing: { planType: 'tiered', price: '0.0000', freeUnits: 0, tiers: [{ fromUnits: 1, toUnits: null, price: '9.9999' }] },
      meters: [
        { meterId: 'mtr_1', meterCode: 'api', name: 'API', model: 'per_unit', price: '0.0333', includedUnits: 0, tiers: [], minimumUnits: 0, planMinimumUnits: 0 },
      ],
    });
    const uplift: SubscriptionEvent = {
      type: 'SubscriptionCpiUplifted',
      data: {
        subscriptionId: 'sub_1',
        periodStart: '2026-02-28',
        year: 2025,
        percent: '3.50',
        // 9.9999 × 1.035 = 10.3498965 → 10.3499; 0.0333 × 1.035 = 0.0344655 → 0.0345.
        price: '0.0000',
        tiers: [{ fromUnits: 1, toUnits: null, price: '10.3499' }],
        meters: [{ meterId: 'mtr_1', price: '0.0345', tiers: [] }],
      },
    };
    const cpi = { year: 2025, percent: '3.50' };
    spec([cpiSubscription]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi })).then([uplift, raised('2026-02-28', '2026-03-31')]);
    // The same year is not applied at the next renewal; a later year is.
    const rolled = [cpiSubscription, uplift, raised('2026-02-28', '2026-03-31'), renewed('2026-02-28', '2026-03-31')];
    spec(rolled).when(step('renewal_invoice', '2026-03-31', '2026-03-24', { cpi })).then([raised('2026-03-31', '2026-04-30')]);
    const state = fold(rolled);
    expect(state.subscription.pricing.tiers[0]!.price).toBe('10.3499');
    expect(state.subscription.meters[0]!.price).toBe('0.0345');
  });

  it('CPI: an uplift that would bill the renewal past the largest amount is withheld, says why, and is not tried again that year', () => {
    // 20 units at 49,999,999,999.9999 bill 999,999,999,999.9980; 0.01 % more bills 1,000,099,999,999.9980.
    const nearLimit = created({
      cpiEnabled: true,
      units: 20,
      pricing: { planType: 'per_unit', price: '49999999999.9999', freeUnits: 0, tiers: [] },
    });
    const cpi = { year: 2025, percent: '0.01' };
    const withheld: SubscriptionEvent = {
      type: 'SubscriptionCpiUpliftWithheld',
      data: {
        subscriptionId: 'sub_1',
        periodStart: '2026-02-28',
        year: 2025,
        percent: '0.01',
        reason: 'The CPI uplift of 0.01% makes an amount of 1000099999999.9980; the most is 999999999999.9999.',
      },
    };
    spec([nearLimit]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi })).then([withheld, raised('2026-02-28', '2026-03-31', { units: 20 })]);
    const rolled = [nearLimit, withheld, raised('2026-02-28', '2026-03-31', { units: 20 }), renewed('2026-02-28', '2026-03-31')];
    expect(fold(rolled).subscription.pricing.price).toBe('49999999999.9999');
    spec(rolled).when(step('renewal_invoice', '2026-03-31', '2026-03-24', { cpi })).then([raised('2026-03-31', '2026-04-30', { units: 20 })]);
    // A cut always fits, and a later year is tried again.
    spec(rolled).when(step('renewal_invoice', '2026-03-31', '2026-03-24', { cpi: { year: 2026, percent: '-1.00' } })).then([
      expect.objectContaining({ type: 'SubscriptionCpiUplifted', data: expect.objectContaining({ year: 2026, price: '49499999999.9999' }) }),
      raised('2026-03-31', '2026-04-30', { units: 20 }),
    ]);
  });

  it('CPI: the carried prorated charges and the meters’ minimums count towards the limit, and a price past it is withheld whatever the units', () => {
    const meter = { meterId: 'mtr_1', meterCode: 'api', name: 'API', model: 'per_unit' as const, price: '999999999999.0000', includedUnits: 0, tiers: [], minimumUnits: 0, planMinimumUnits: 0 };
    const unusedMeter = created({ cpiEnabled: true, meters: [meter] });
    const cpi = { year: 2025, percent: '1.00' };
    spec([unusedMeter]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi })).then([
      expect.objectContaining({ type: 'SubscriptionCpiUpliftWithheld', data: expect.objectContaining({ reason: expect.stringContaining('makes a price of 1009999999998.9900') }) }),
      raised('2026-02-28', '2026-03-31'),
    ]);
    // Alone each fits: a fee of 51,000,000,000 and a minimum of 958,800,000,000; together they do not.
    const withMinimum = created({
      cpiEnabled: true,
      units: 5,
      pricing: { planType: 'per_unit', price: '10000000000.0000', freeUnits: 0, tiers: [] },
      meters: [{ ...meter, price: '1.0000', minimumUnits: 940_000_000_000 }],
    });
    spec([withMinimum]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi: { year: 2025, percent: '2.00' } })).then([
      expect.objectContaining({ type: 'SubscriptionCpiUpliftWithheld', data: expect.objectContaining({ reason: expect.stringContaining('takes the renewal value to 1009800000000.0000') }) }),
      raised('2026-02-28', '2026-03-31'),
    ]);
    // 8 units at 100,000,000,000 and a carried charge of 195,000,000,000 fit; 1 % more does not.
    const carrying = [
      created({ cpiEnabled: true, pricing: { planType: 'per_unit', price: '100000000000.0000', freeUnits: 0, tiers: [] } }),
      { type: 'SubscriptionUnitsChanged', data: unitsChanged('chg_1', '195000000000.0000') } as SubscriptionEvent,
    ];
    spec(carrying).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi })).then([
      expect.objectContaining({
        type: 'SubscriptionCpiUpliftWithheld',
        data: expect.objectContaining({ reason: expect.stringContaining('takes the renewal invoice subtotal to 1003000000000.0000') }),
      }),
      raised('2026-02-28', '2026-03-31', { units: 8, adjustments: [{ changeId: 'chg_1', amount: '195000000000.0000' }] }),
    ]);
  });

  it('CPI: the usage already recorded for a period the uplift prices counts towards the limit', () => {
    // 990,000,000,000 calls at 1.0000 recorded for the period from 28 Feb fit; at 1.0200 they do not.
    const metered = created({ cpiEnabled: true, meters: [{ meterId: 'mtr_1', meterCode: 'api', name: 'API', model: 'per_unit', price: '1.0000', includedUnits: 0, tiers: [], minimumUnits: 0, planMinimumUnits: 0 }] });
    const calls = (quantity: bigint) => new Map([['2026-02-28', new Map([['mtr_1', quantity * 10_000n]])]]);
    const cpi = { year: 2025, percent: '2.00' };
    spec([metered]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi, usageFrom: calls(990_000_000_000n) })).then([
      expect.objectContaining({
        type: 'SubscriptionCpiUpliftWithheld',
        data: expect.objectContaining({ reason: 'The CPI uplift of 2.00% takes the usage charges of the period from 2026-02-28 to 1009800000000.0000; the most is 999999999999.9999.' }),
      }),
      raised('2026-02-28', '2026-03-31'),
    ]);
    spec([metered]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi, usageFrom: calls(980_000_000_000n) })).then([
      expect.objectContaining({ type: 'SubscriptionCpiUplifted' }),
      raised('2026-02-28', '2026-03-31'),
    ]);
  });

  it('a subscription without cpi_enabled keeps its prices', () => {
    spec([created()]).when(step('renewal_invoice', '2026-02-28', '2026-02-21', { cpi: { year: 2025, percent: '3.50' } })).then([raised('2026-02-28', '2026-03-31')]);
  });
});

function unitsChanged(changeId: string, amount: string): SubscriptionUnitsChangedData {
  return {
    subscriptionId: 'sub_1',
    changeId,
    changedAt: '2026-02-10T09:00:00.000Z',
    previousUnits: 5,
    units: 8,
    prorate: true,
    prorationBehaviour: 'charge_on_renewal',
    effectiveDate: '2026-02-12',
    document: null,
    periodStart: '2026-01-31',
    renewalDate: '2026-02-28',
    periodUnits: 8,
    // 3 seats × 10.0000 = 30.0000 a period; 16 of 28 days left: 30 × 16 / 28 = 17.1428…; here a given amount.
    proration: { daysLeft: 16, daysInPeriod: 28, numerator: '4800000', amount },
    invoiceId: null,
    creditNoteId: null,
    creditedInvoiceId: null,
    renewalAdjustment: amount,
  };
}

describe('renewalInvoice: the lines of a renewal, computed by hand', () => {
  it('bills the whole period at the units then, revenue type renewal, from the renewal date, plus the adjustment as expansion, net of discount', () => {
    // 10 % off. 8 seats × 10.0000 = 80.0000, discount 8.0000, 72.0000; the adjustment 17.1429, discount 1.7143, 15.4286.
    const events = [created({ discountPercent: '10.00' }), { type: 'SubscriptionUnitsChanged', data: unitsChanged('chg_1', '17.1429') } as SubscriptionEvent];
    const raisedEvent = raised('2026-02-28', '2026-03-31', { units: 8, adjustments: [{ changeId: 'chg_1', amount: '17.1429' }] });
    const state = fold([...events, raisedEvent]);
    const invoice = renewalInvoice({
      state,
      raised: (raisedEvent as Extract<SubscriptionEvent, { type: 'SubscriptionRenewalInvoiceRaised' }>).data,
      lineIds: (i) => `line_${i}`,
      now: '2026-02-21T00:00:00.000Z',
      paymentTermsDays: 14,
    });
    expect(invoice.invoiceDate).toBe('2026-02-21T00:00:00.000Z');
    expect(invoice.dueDate).toBe('2026-03-07T00:00:00.000Z');
    expect(invoice.lines.map((l) => [l.revenueType, l.units, l.amount, l.discountAmount, l.chargeAmount, l.effectiveDate])).toEqual([
      ['renewal', 8, '80.0000', '8.0000', '72.0000', '2026-02-28T00:00:00.000Z'],
      ['expansion', 8, '17.1429', '1.7143', '15.4286', '2026-02-12T00:00:00.000Z'],
    ]);
    expect(invoice.lines[0]!.description).toBe('Period 2026-02-28 to 2026-03-31');
    expect(invoice.subtotal).toBe('87.4286');
  });
});
