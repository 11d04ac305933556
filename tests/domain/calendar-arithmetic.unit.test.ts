import fc from 'fast-check';
import { addDays, byLuxon, compareDates, daysBetween, isDateInRange, periodContaining, periodStart } from '../../domain/pricing/calendar';

/**
 * The billing calendar computes dates with plain day arithmetic (domain/pricing/civil-date.ts)
 * instead of Luxon on its hot path. `byLuxon` is the Luxon implementation it replaced (kept as the
 * fallback): on any dates, intervals and counts, both must answer exactly the same.
 */
const luxon = byLuxon;

/** An answer or the error thrown (Luxon throws on an impossible date in some paths; so must the replacement). */
const outcome = <T>(compute: () => T): { value: T } | { error: string } => {
  try {
    return { value: compute() };
  } catch (error) {
    return { error: String(error) };
  }
};

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Dates from 1970 to 9999, month ends and 29 February over-represented; some impossible (31 April) to check the fallback. */
const date = fc
  .record({ year: fc.oneof(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 1970, max: 9999 })), month: fc.integer({ min: 1, max: 12 }), day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constantFrom(28, 29, 30, 31)) })
  .map(({ year, month, day }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);
const interval = fc.record({ unit: fc.constantFrom('day', 'week', 'month', 'year' as const), count: fc.integer({ min: 1, max: 24 }) });
const runs = { numRuns: 1500 };

describe('billing calendar arithmetic, against the Luxon implementation it replaced', () => {
  it('periodStart', () => {
    fc.assert(fc.property(date, interval, fc.integer({ min: 0, max: 5000 }), (anchor, every, n) => {
      expect(periodStart(anchor, every, n)).toBe(luxon.periodStart(anchor, every, n));
    }), runs);
  });

  it('periodContaining', () => {
    fc.assert(fc.property(date, interval, date, (anchor, every, at) => {
      expect(outcome(() => periodContaining(anchor, every, at))).toEqual(outcome(() => luxon.periodContaining(anchor, every, at)));
    }), runs);
  });

  it('periodContaining near the anchor and around month ends', () => {
    fc.assert(fc.property(date, interval, fc.integer({ min: -40, max: 4000 }), (anchor, every, offset) => {
      const at = luxon.addDays(anchor, offset);
      expect(outcome(() => periodContaining(anchor, every, at))).toEqual(outcome(() => luxon.periodContaining(anchor, every, at)));
    }), runs);
  });

  it('compareDates, daysBetween, addDays and isDateInRange', () => {
    fc.assert(fc.property(date, date, fc.integer({ min: -100_000, max: 100_000 }), (a, b, days) => {
      expect(Object.is(compareDates(a, b), luxon.compareDates(a, b)) || compareDates(a, b) === luxon.compareDates(a, b)).toBe(true);
      expect(daysBetween(a, b) === luxon.daysBetween(a, b) || (Number.isNaN(daysBetween(a, b)) && Number.isNaN(luxon.daysBetween(a, b)))).toBe(true);
      expect(addDays(a, days)).toBe(luxon.addDays(a, days));
      expect(isDateInRange(a)).toBe(luxon.compareDates(a, '1970-01-01') >= 0 && luxon.compareDates(a, '9999-12-31') <= 0);
    }), runs);
  });

  it('agrees on the worked examples of the calendar tests, and past year 9999', () => {
    expect(periodStart('2028-01-31', { unit: 'month', count: 1 }, 1)).toBe('2028-02-29');
    expect(periodStart('9999-12-31', { unit: 'month', count: 1 }, 1)).toBe(luxon.periodStart('9999-12-31', { unit: 'month', count: 1 }, 1));
    expect(periodStart('9999-12-31', { unit: 'month', count: 1 }, 1)).toBe('10000-01-31');
    expect(addDays('2026-02-30', 1)).toBe(luxon.addDays('2026-02-30', 1));
  });
});
