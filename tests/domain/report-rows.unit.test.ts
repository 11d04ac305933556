import fc from 'fast-check';
import { addDays } from '../../domain/pricing/calendar';
import { formatMoney, type Money, parseMoney } from '../../domain/pricing/money';
import { activeChangeOf, MOVEMENT_KINDS, monthlyMovements } from '../../domain/reports/mrr-movement';
import { addMonths, type Month, monthsFrom, monthStart } from '../../domain/reports/months';
import { firstMonths, type MrrMonth, mrrRows, revenueRows } from '../../domain/reports/report-rows';
import { NO_REVENUE } from '../../domain/reports/revenue';
import { cpiUplifted, created, ended, endScheduled, type Happened, restored, timelineOf, unitsChanged } from '../support/recurring-events';

const money = parseMoney;
const noMovement = { new: 0n, expansion: 0n, contraction: 0n, churn: 0n, reactivation: 0n };

describe('report rows', () => {
  it('runs each currency from its first month, opening with every earlier month’s net movement', () => {
    const months: MrrMonth[] = [
      { month: '2026-01', currency: 'GBP', movements: { ...noMovement, new: money('100') }, activeChange: 2 },
      { month: '2026-03', currency: 'GBP', movements: { ...noMovement, expansion: money('30'), churn: money('40') }, activeChange: -1 },
      { month: '2026-02', currency: 'EUR', movements: { ...noMovement, new: money('9.5') }, activeChange: 1 },
    ];
    const rows = mrrRows(months, firstMonths(months), { from: '2026-02', to: '2026-04' }).map((r) => [
      r.month,
      r.currency,
      formatMoney(r.opening),
      formatMoney(r.closing),
      r.activeSubscriptions,
    ]);
    expect(rows).toEqual([
      // GBP opens February with January's 100.0000 (2 subscriptions); March: 100 + 30 − 40 = 90.0000, 1 left.
      ['2026-02', 'EUR', '0.0000', '9.5000', 1],
      ['2026-02', 'GBP', '100.0000', '100.0000', 2],
      ['2026-03', 'EUR', '9.5000', '9.5000', 1],
      ['2026-03', 'GBP', '100.0000', '90.0000', 1],
      ['2026-04', 'EUR', '9.5000', '9.5000', 1],
      ['2026-04', 'GBP', '90.0000', '90.0000', 1],
    ]);
    // A range before a currency's first month has no row of it; one from before starts at that month.
    expect(mrrRows(months, firstMonths(months), { from: '2025-06', to: '2026-01' }).map((r) => [r.month, r.currency])).toEqual([['2026-01', 'GBP']]);
  });

  it('gives revenue rows with zeros for the months between, the total the sum of the four types', () => {
    const held = [{ month: '2026-01', currency: 'GBP', revenue: { ...NO_REVENUE, renewal: money('45'), usage: money('4.5005'), expansion: money('-2.25') }, credits: money('2.25') }];
    const rows = revenueRows(held, firstMonths(held), { from: '2026-01', to: '2026-02' });
    expect(rows.map((r) => [r.month, formatMoney(r.revenue.renewal), formatMoney(r.credits), formatMoney(r.total)])).toEqual([
      ['2026-01', '45.0000', '2.2500', '47.2505'], // 45 + 4.5005 − 2.25
      ['2026-02', '0.0000', '0.0000', '0.0000'],
    ]);
  });
});

const TIMEZONES = ['Europe/London', 'Australia/Sydney', 'America/New_York'] as const;
const day = (offset: number) => addDays('2025-01-01', offset);

/** One subscription's random history: its creation, then changes, CPI, ends and restores on random days of 2025–2027. */
const subscriptionHistory = fc
  .record({
    currency: fc.constantFrom('GBP', 'EUR'),
    timezone: fc.constantFrom(...TIMEZONES),
    interval: fc.record({ unit: fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'year' as const), count: fc.integer({ min: 1, max: 3 }) }),
    start: fc.integer({ min: 0, max: 1000 }),
    units: fc.integer({ min: 0, max: 20 }),
    price: fc.bigInt({ min: 0n, max: 1_000_000n }),
    discount: fc.constantFrom('0.00', '12.50', '100.00'),
    steps: fc.array(
      fc.record({
        kind: fc.constantFrom('prorated', 'at_renewal', 'cpi', 'end_scheduled', 'ended', 'restored'),
        after: fc.integer({ min: 0, max: 200 }),
        units: fc.integer({ min: 0, max: 20 }),
        hour: fc.integer({ min: 0, max: 23 }),
      }),
      { maxLength: 6 },
    ),
  })
  .map((s) => {
    const creation = created({
      currency: s.currency,
      timezone: s.timezone,
      interval: s.interval,
      startDate: day(s.start),
      units: s.units,
      discountPercent: s.discount,
      pricing: { planType: 'per_unit', price: formatMoney(s.price), freeUnits: 0, tiers: [] },
    });
    let offset = s.start;
    const history: Happened[] = s.steps.map((step) => {
      offset += step.after;
      const date = day(offset);
      const at = `${date}T${String(step.hour).padStart(2, '0')}:00:00.000Z`;
      const event = {
        prorated: () => unitsChanged(step.units, date, day(offset + 30)),
        at_renewal: () => unitsChanged(step.units, null, day(offset + 30)),
        cpi: () => cpiUplifted(day(offset + 7), formatMoney((s.price * 1035n) / 1000n)),
        end_scheduled: () => endScheduled(day(offset + 30)),
        ended: () => ended(date),
        restored: () => restored(step.units % 2 === 0 ? 'ended' : 'cancel_at_period_end'),
      }[step.kind]();
      return { event, at };
    });
    return { currency: s.currency, timeline: timelineOf(creation, history) };
  });

describe('report rows over random histories (property)', () => {
  it('opening + new + expansion + reactivation − contraction − churn = closing, closing = next opening, and both are the subscriptions’ MRR then', () => {
    fc.assert(
      fc.property(fc.array(subscriptionHistory, { minLength: 1, maxLength: 8 }), fc.constantFrom(...TIMEZONES), (subscriptions, timezone) => {
        // What the projection keeps: each subscription's movements summed by month and currency.
        const held = new Map<string, { month: Month; currency: string; movements: Record<string, Money>; activeChange: number }>();
        for (const { currency, timeline } of subscriptions) {
          for (const movement of monthlyMovements(timeline, timezone)) {
            const key = `${movement.month} ${currency}`;
            const month = held.get(key) ?? { month: movement.month, currency, movements: { ...noMovement }, activeChange: 0 };
            month.movements[movement.kind] = month.movements[movement.kind]! + movement.amount;
            month.activeChange += activeChangeOf(movement.kind);
            held.set(key, month);
          }
        }
        const months = [...held.values()] as MrrMonth[];
        const range = { from: '2024-11', to: '2029-02' };
        const rows = mrrRows(months, firstMonths(months), range);
        const at = (currency: string, month: Month) => {
          const values = subscriptions.filter((s) => s.currency === currency).map((s) => s.timeline.at(monthStart(month, timezone)));
          return { mrr: values.reduce((sum, v) => sum + v, 0n), active: values.filter((v) => v > 0n).length };
        };
        for (const row of rows) {
          const m = row.movements;
          expect(row.opening + m.new + m.expansion + m.reactivation - m.contraction - m.churn).toBe(row.closing);
          expect(MOVEMENT_KINDS.every((kind) => m[kind] >= 0n)).toBe(true);
          expect(row.opening).toBe(at(row.currency, row.month).mrr);
          expect(row.closing).toBe(at(row.currency, addMonths(row.month, 1)).mrr);
          expect(row.activeSubscriptions).toBe(at(row.currency, addMonths(row.month, 1)).active);
          const next = rows.find((r) => r.currency === row.currency && r.month === addMonths(row.month, 1));
          if (next) expect(next.opening).toBe(row.closing);
        }
        // No currency with MRR in the range lacks its rows.
        for (const currency of ['GBP', 'EUR']) {
          for (const month of monthsFrom(range.from, range.to)) {
            if (at(currency, month).mrr !== 0n) expect(rows.some((r) => r.currency === currency && r.month === month)).toBe(true);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
