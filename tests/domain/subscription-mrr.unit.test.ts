import fc from 'fast-check';
import { renewalLine } from '../../domain/invoice/renewal-invoice';
import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { monthlyRecurring } from '../../domain/reports/monthly-recurring';
import { initialLifecycle } from '../../domain/subscription/lifecycle';
import type { SubscriptionCreatedData } from '../../domain/subscription/events';
import { cpiUplifted, created, ended, endScheduled, restored, timelineOf, unitsChanged } from '../support/recurring-events';

const at = (instant: string) => Date.parse(instant);
const mrr = (creation: SubscriptionCreatedData, instant: string, history: Parameters<typeof timelineOf>[1] = []) => formatMoney(timelineOf(creation, history).at(at(instant)));

describe('the MRR of one subscription', () => {
  it('normalises the whole period to a month by its interval, rounding once', () => {
    // 5 seats × 10.0000 = 50.0000 a period.
    const seats = (unit: 'day' | 'week' | 'month' | 'year', count: number) => mrr(created({ interval: { unit, count } }), '2026-01-20T00:00:00Z');
    expect(seats('month', 1)).toBe('50.0000');
    expect(seats('month', 3)).toBe('16.6667'); // 50 ÷ 3 = 16.66666…
    expect(seats('year', 1)).toBe('4.1667'); // 50 ÷ 12 = 4.16666…
    expect(seats('year', 2)).toBe('2.0833'); // 50 ÷ 24 = 2.08333…
    expect(seats('week', 1)).toBe('216.6667'); // 50 × 52 ÷ 12 = 216.66666…
    expect(seats('week', 2)).toBe('108.3333'); // 50 × 52 ÷ 24 = 108.33333…
    expect(seats('day', 1)).toBe('1520.8333'); // 50 × 365 ÷ 12 = 1520.83333…
    expect(seats('day', 7)).toBe('217.2619'); // 50 × 365 ÷ 84 = 217.26190…
  });

  it('rounds half away from zero once, at the end', () => {
    expect(formatMoney(monthlyRecurring(parseMoney('0.0005'), { unit: 'month', count: 10 }))).toBe('0.0001'); // 0.00005 → 0.0001
    expect(formatMoney(monthlyRecurring(parseMoney('0.0001'), { unit: 'year', count: 1 }))).toBe('0.0000');
    // 0.0003 × 365 ÷ 12 = 0.009125 → 0.0091: one rounding, not 0.0003 ÷ 12 rounded first (0.0000).
    expect(formatMoney(monthlyRecurring(parseMoney('0.0003'), { unit: 'day', count: 1 }))).toBe('0.0091');
  });

  it('is what the renewal line bills, net of its rounded discount', () => {
    // 33.3333 (one seat): discount 12.5 % = 4.16666… → 4.1667; net 29.1666; a quarter ÷ 3 = 9.7222.
    const quarterly = created({ units: 1, discountPercent: '12.50', pricing: { planType: 'per_unit', price: '33.3333', freeUnits: 0, tiers: [] }, interval: { unit: 'month', count: 3 } });
    expect(mrr(quarterly, '2026-02-01T00:00:00Z')).toBe('9.7222');
    // A flat fee ignores units; free units are not billed: (5 − 2) × 10.0000 = 30.0000.
    expect(mrr(created({ pricing: { planType: 'flat_fee', price: '99.0000', freeUnits: 0, tiers: [] } }), '2026-02-01T00:00:00Z')).toBe('99.0000');
    expect(mrr(created({ pricing: { planType: 'per_unit', price: '10.0000', freeUnits: 2, tiers: [] } }), '2026-02-01T00:00:00Z')).toBe('30.0000');
    // Usage only: no recurring price, no MRR.
    expect(mrr(created({ pricing: { planType: 'no_base_fee', price: '0.0000', freeUnits: 0, tiers: [] } }), '2026-02-01T00:00:00Z')).toBe('0.0000');
  });

  it('equals the renewal line of a monthly subscription for any units, price and discount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom('per_unit', 'tiered', 'volume', 'stairstep', 'flat_fee') ,
        (units, price, discount, planType) => {
          const creation = created({
            units,
            discountPercent: `${Math.floor(discount / 100)}.${String(discount % 100).padStart(2, '0')}`,
            pricing: {
              planType,
              price: formatMoney(price),
              freeUnits: 1,
              tiers: [
                { fromUnits: 1, toUnits: 10, price: formatMoney(price) },
                { fromUnits: 11, toUnits: null, price: formatMoney(price / 2n) },
              ],
            },
          });
          const line = renewalLine({ status: 'active', subscription: creation, life: initialLifecycle(creation) }, { start: '2026-02-15', end: '2026-03-15' }, units, 'il_1');
          expect(mrr(creation, '2026-02-01T00:00:00Z')).toBe(line.chargeAmount);
        },
      ),
    );
  });

  it('is 0 before the start date (pending) and from its first instant on has MRR', () => {
    const pending = created({ status: 'pending', startDate: '2026-03-10', currentPeriodStart: '2026-03-10', renewalDate: '2026-04-10' });
    expect(mrr(pending, '2026-03-09T23:59:59.999Z')).toBe('0.0000');
    expect(mrr(pending, '2026-03-10T00:00:00.000Z')).toBe('50.0000');
    // Its start date is a date of the subscription's timezone: midnight in Sydney is 13:00 UTC the day before (AEDT).
    const sydney = created({ timezone: 'Australia/Sydney', startDate: '2026-03-10' });
    expect(mrr(sydney, '2026-03-09T12:59:59.999Z')).toBe('0.0000');
    expect(mrr(sydney, '2026-03-09T13:00:00.000Z')).toBe('50.0000');
  });

  it('is 0 from the end date on, ended now or after end_after_cycles', () => {
    const history = [{ event: ended('2026-02-20'), at: '2026-02-20T10:00:00Z' }];
    expect(mrr(created(), '2026-02-19T23:59:59Z', history)).toBe('50.0000');
    expect(mrr(created(), '2026-02-20T00:00:00Z', history)).toBe('0.0000');
    const twoCycles = created({ endAfterCycles: 2, endDate: '2026-03-15' });
    expect(mrr(twoCycles, '2026-03-14T23:59:59Z')).toBe('50.0000');
    expect(mrr(twoCycles, '2026-03-15T00:00:00Z')).toBe('0.0000');
  });

  it('set to end at period end keeps its MRR until it ends; restored, it never stops', () => {
    const scheduled = [{ event: endScheduled('2026-02-15'), at: '2026-01-20T10:00:00Z' }];
    expect(mrr(created(), '2026-02-14T23:59:59Z', scheduled)).toBe('50.0000');
    expect(mrr(created(), '2026-02-15T00:00:00Z', scheduled)).toBe('0.0000');
    const changedMind = [...scheduled, { event: restored('cancel_at_period_end'), at: '2026-02-01T10:00:00Z' }];
    expect(mrr(created(), '2026-02-15T00:00:00Z', changedMind)).toBe('50.0000');
    expect(timelineOf(created(), changedMind).changes).toEqual([at('2026-01-15T00:00:00Z')]);
  });

  it('restored after ending: 0 from the end date until the restore, then its MRR again', () => {
    const history = [
      { event: ended('2026-02-05'), at: '2026-02-05T10:00:00Z' },
      { event: restored('ended'), at: '2026-02-09T15:30:00Z' },
    ];
    expect(mrr(created(), '2026-02-04T23:59:59Z', history)).toBe('50.0000');
    expect(mrr(created(), '2026-02-07T00:00:00Z', history)).toBe('0.0000');
    expect(mrr(created(), '2026-02-09T15:29:59Z', history)).toBe('0.0000');
    expect(mrr(created(), '2026-02-09T15:30:00Z', history)).toBe('50.0000');
  });

  it('takes a prorated unit change from its effective date, one without proration from the renewal date', () => {
    const history = [
      { event: unitsChanged(8, '2026-01-20', '2026-02-15'), at: '2026-01-22T10:00:00Z' },
      { event: unitsChanged(3, null, '2026-02-15'), at: '2026-01-25T10:00:00Z' },
    ];
    expect(mrr(created(), '2026-01-19T23:59:59Z', history)).toBe('50.0000');
    expect(mrr(created(), '2026-01-20T00:00:00Z', history)).toBe('80.0000'); // 8 × 10.0000
    expect(mrr(created(), '2026-02-14T23:59:59Z', history)).toBe('80.0000'); // the period stays billed at 8
    expect(mrr(created(), '2026-02-15T00:00:00Z', history)).toBe('30.0000'); // 3 × 10.0000 from the renewal
    // A prorated change after it overrides the change waiting for the renewal.
    const overridden = [...history, { event: unitsChanged(10, '2026-02-01', '2026-02-15'), at: '2026-02-01T10:00:00Z' }];
    expect(mrr(created(), '2026-02-15T00:00:00Z', overridden)).toBe('100.0000');
  });

  it('takes a CPI uplift from the period it prices', () => {
    // 10.0000 + 3.5 % = 10.3500 a seat from the renewal on 15 Feb: 5 × 10.3500 = 51.7500.
    const history = [{ event: cpiUplifted('2026-02-15', '10.3500'), at: '2026-02-08T10:00:00Z' }];
    expect(mrr(created(), '2026-02-14T23:59:59Z', history)).toBe('50.0000');
    expect(mrr(created(), '2026-02-15T00:00:00Z', history)).toBe('51.7500');
  });
});
