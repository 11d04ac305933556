import fc from 'fast-check';
import type { PlanDefinition } from '../../domain/catalogue/types';
import { amountOverLimit, MAX_AMOUNT } from '../../domain/pricing/amount-limits';
import { compareDates, type Interval, isDateInRange, periodContaining, periodStart } from '../../domain/pricing/calendar';
import type { CreateSubscription } from '../../domain/subscription/create';
import { subscriptionDecider } from '../../domain/subscription/decider';
import { deciderSpec } from '../support/decider-spec';

const spec = deciderSpec(subscriptionDecider);

const plan: PlanDefinition = {
  planId: 'plan_1',
  organisationId: 'org_1',
  code: 'seats',
  name: 'Seats',
  type: 'per_unit',
  interval: { unit: 'month', count: 1 },
  currency: 'GBP',
  price: '999999999999.9999',
  minimumUnits: 0,
  freeUnits: 0,
  unitLabels: { singular: null, plural: null },
  allowsPriceOverride: false,
  status: 'active',
  tiers: [],
  meters: [],
};

const create = (request: Partial<CreateSubscription['request']>, more: Partial<CreateSubscription> = {}): CreateSubscription => ({
  type: 'CreateSubscription',
  subscriptionId: 'sub_1',
  firstInvoiceId: 'inv_1',
  now: '2026-03-15T10:00:00.000Z',
  organisation: { id: 'org_1', timezone: 'Europe/London', setupMode: false },
  customer: { id: 'cus_1', code: 'C1', status: 'active' },
  plan,
  charges: [],
  request: {
    units: 1,
    discountPercent: '0.00',
    invoiceReference: null,
    startDate: null,
    flatFeePrice: null,
    minimumUnits: null,
    meters: [],
    endAfterCycles: null,
    label: null,
    cpiEnabled: false,
    ...request,
  },
  ...more,
});

describe('class 2: bounded dates and period arithmetic', () => {
  const naive = (anchor: string, interval: Interval, date: string) => {
    let n = 0;
    while (compareDates(periodStart(anchor, interval, n + 1), date) <= 0) n++;
    return n;
  };

  it('finds the period holding a date as a walk from the anchor would, without walking', () => {
    const day = fc.integer({ min: 0, max: 3 * 365 }).map((days) => new Date(Date.UTC(2024, 0, 1) + days * 86_400_000).toISOString().slice(0, 10));
    const interval = fc.record({ unit: fc.constantFrom('day', 'week', 'month', 'year' as const), count: fc.integer({ min: 1, max: 12 }) });
    fc.assert(
      fc.property(day, interval, fc.integer({ min: 0, max: 2 * 365 }), (anchor, unit, ahead) => {
        const date = new Date(Date.parse(anchor) + ahead * 86_400_000).toISOString().slice(0, 10);
        const found = periodContaining(anchor, unit, date);
        expect(found.index).toBe(naive(anchor, unit, date));
        expect(compareDates(found.start, date)).toBeLessThanOrEqual(0);
        expect(compareDates(found.end, date)).toBeGreaterThan(0);
      }),
      { numRuns: 120 },
    );
  });

  it('spans the whole date range at once', () => {
    expect(periodContaining('1970-01-31', { unit: 'day', count: 1 }, '9999-12-30')).toMatchObject({ start: '9999-12-30', end: '9999-12-31' });
    expect(periodContaining('1970-01-31', { unit: 'month', count: 1 }, '9999-12-30')).toMatchObject({ start: '9999-11-30', end: '9999-12-31' });
  });

  it('compares dates as dates, whatever the width of their years', () => {
    expect(periodStart('9999-12-31', { unit: 'year', count: 1 }, 1)).toBe('10000-12-31');
    expect(compareDates('10000-12-31', '9999-12-31')).toBeGreaterThan(0);
    expect(isDateInRange('10000-12-31')).toBe(false);
    expect(isDateInRange('9999-12-31')).toBe(true);
    expect(isDateInRange('1970-01-01')).toBe(true);
    expect(isDateInRange('1969-12-31')).toBe(false);
    expect(isDateInRange('2026-02-29')).toBe(false);
  });

  it('refuses a subscription whose dates leave the range, naming the field', () => {
    spec([]).when(create({ startDate: '9999-12-31' })).thenRefuses('invalid_parameter', 'start_date');
    spec([]).when(create({ endAfterCycles: 10_000 }, { plan: { ...plan, interval: { unit: 'year', count: 100 } } })).thenRefuses('invalid_parameter', 'end_after_cycles');
  });
});

describe('class 3: every computed amount is checked before anything is recorded', () => {
  it('finds the first amount, or running total, over the limit and names its field', () => {
    expect(amountOverLimit([{ param: 'units', amount: MAX_AMOUNT }], 'subtotal')).toBeNull();
    expect(amountOverLimit([{ param: 'units', amount: MAX_AMOUNT + 1n }], 'subtotal')?.param).toBe('units');
    const total = amountOverLimit(
      [
        { param: 'units', amount: MAX_AMOUNT - 10n },
        { param: 'charges.0.quantity', amount: 10n },
        { param: 'charges.1.quantity', amount: 1n },
      ],
      'subtotal',
    );
    expect(total).toEqual({ param: 'charges.1.quantity', message: expect.stringContaining('subtotal') });
  });

  it('refuses price × units over the limit before the subscription is recorded, naming units', () => {
    // 999,999,999,999.9999 × 2 = 1,999,999,999,999.9998: over 999,999,999,999.9999
    spec([]).when(create({ units: 2 })).thenRefuses('invalid_parameter', 'units');
    expect(subscriptionDecider.decide(create({ units: 1 }), subscriptionDecider.initialState())).toHaveLength(1);
  });

  it('refuses a raised meter minimum whose renewal value passes the limit, naming it', () => {
    const metered: PlanDefinition = {
      ...plan,
      price: '1.0000',
      meters: [
        {
          meterId: 'mtr_1',
          meterCode: 'calls',
          name: 'Calls',
          unitLabels: { singular: null, plural: null },
          pricingModel: 'per_unit',
          price: '999999999999.0000',
          includedUnits: 0,
          minimumUnits: 0,
          tiers: [],
        },
      ],
    };
    spec([]).when(create({ meters: [{ meterCode: 'calls', minimumUnits: 5 }] }, { plan: metered })).thenRefuses('invalid_parameter', 'meters.0.minimum_units');
  });
});
