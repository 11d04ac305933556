import fc from 'fast-check';
import { amountOverLimit, MAX_AMOUNT } from '../../domain/pricing/amount-limits';
import { compareDates, type Interval, isCalendarDate, isDateInRange, periodContaining, periodStart } from '../../domain/pricing/calendar';
import { DomainError } from '../../domain/shared/domain-error';
import { withinCreationLimits } from '../../domain/subscription/creation-limits';
import type { SubscriptionCreatedData } from '../../domain/subscription/events';

const HUGE = '999999999999.9999';

/** Only what the limits read: dates, units, prices, meters and charges (the rest of the facts play no part). */
const created = (facts: Partial<SubscriptionCreatedData>): SubscriptionCreatedData =>
  ({
    startDate: '2026-03-15',
    renewalDate: '2026-04-15',
    endDate: null,
    units: 1,
    pricing: { planType: 'per_unit', price: HUGE, freeUnits: 0, tiers: [] },
    meters: [],
    firstInvoiceCharges: [],
    ...facts,
  }) as SubscriptionCreatedData;

const refusal = (run: () => unknown): { code: string; param: string | undefined } | null => {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, param: error.param };
  }
};

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

  it('refuses a subscription whose dates leave the range, naming the field that took them out', () => {
    expect(refusal(() => withinCreationLimits([], created({ startDate: '1969-12-31' })))).toEqual({ code: 'invalid_parameter', param: 'start_date' });
    expect(refusal(() => withinCreationLimits([], created({ startDate: '9999-12-31', renewalDate: '10000-01-31' })))).toEqual({ code: 'invalid_parameter', param: 'start_date' });
    expect(refusal(() => withinCreationLimits([], created({ endDate: '12026-03-15' })))).toEqual({ code: 'invalid_parameter', param: 'end_after_cycles' });
    expect(refusal(() => withinCreationLimits([], created({ endDate: 'Invalid DateTime' })))).toEqual({ code: 'invalid_parameter', param: 'end_after_cycles' });
    expect(refusal(() => withinCreationLimits([], created({ endDate: '9999-12-31' })))).toBeNull();
  });

  it('accepts only real four-digit dates in the range as input', () => {
    expect(['1970-01-01', '2024-02-29', '9999-12-31'].filter(isCalendarDate)).toHaveLength(3);
    expect(['1969-12-31', '10000-01-01', '+010000-01-01', '2026-02-29', '2026-3-1', '0000-01-01'].filter(isCalendarDate)).toEqual([]);
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

  it('refuses price × units over the limit, naming units', () => {
    // 999,999,999,999.9999 × 2 = 1,999,999,999,999.9998: over 999,999,999,999.9999
    expect(refusal(() => withinCreationLimits([], created({ units: 2 })))).toEqual({ code: 'invalid_parameter', param: 'units' });
    expect(refusal(() => withinCreationLimits([], created({ units: 1 })))).toBeNull();
  });

  it('refuses a charge line, or the subtotal it makes with the fee, over the limit, naming the charge quantity', () => {
    const charge = { chargeId: 'chg_1', name: 'Setup', description: null, price: HUGE, quantity: 1, applyDiscount: false };
    const fee = { pricing: { planType: 'per_unit' as const, price: '1.0000', freeUnits: 0, tiers: [] } };
    expect(refusal(() => withinCreationLimits([], created({ ...fee, firstInvoiceCharges: [{ ...charge, quantity: 2 }] })))).toEqual({ code: 'invalid_parameter', param: 'charges.0.quantity' });
    expect(refusal(() => withinCreationLimits([], created({ ...fee, firstInvoiceCharges: [charge] })))).toEqual({ code: 'invalid_parameter', param: 'charges.0.quantity' });
    expect(refusal(() => withinCreationLimits([], created({ ...fee, units: 0, firstInvoiceCharges: [charge] })))).toBeNull();
  });

  it('refuses a raised meter minimum whose renewal value passes the limit, naming it', () => {
    const meter = { meterId: 'mtr_1', meterCode: 'calls', name: 'Calls', model: 'per_unit' as const, price: '999999999999.0000', includedUnits: 0, tiers: [], minimumUnits: 5, planMinimumUnits: 0 };
    const facts = created({ pricing: { planType: 'per_unit', price: '1.0000', freeUnits: 0, tiers: [] }, meters: [meter] });
    expect(refusal(() => withinCreationLimits([{ meterCode: 'other' }, { meterCode: 'calls' }], facts))).toEqual({ code: 'invalid_parameter', param: 'meters.1.minimum_units' });
    expect(refusal(() => withinCreationLimits([], facts))).toEqual({ code: 'invalid_parameter', param: 'plan_code' });
  });
});
