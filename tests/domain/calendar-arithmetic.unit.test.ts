import fc from 'fast-check';
import { addDays, addDaysToInstant, byLuxon, compareDates, daysBetween, isDateInRange, periodContaining, periodStart, startOfDate } from '../../domain/pricing/calendar';

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

  // Every zone Intl knows, zones whose midnight a change of offset skips or repeats (Santiago, Havana, Beirut, Asunción), odd offsets.
  const zones = fc.oneof(
    fc.constantFrom(...Intl.supportedValuesOf('timeZone')),
    fc.constantFrom('UTC', 'America/Santiago', 'America/Havana', 'Asia/Beirut', 'America/Asuncion', 'Africa/Casablanca', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Kathmandu', 'Africa/Monrovia'),
  );
  /** Dates where offsets change most: 1970 to 2040, days before and after each month's start over-represented. */
  const recentDate = fc
    .record({ year: fc.integer({ min: 1970, max: 2040 }), month: fc.integer({ min: 1, max: 12 }), day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constantFrom(1, 2, 7, 8, 14, 15, 28, 31)) })
    .map(({ year, month, day }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);

  it('startOfDate', () => {
    fc.assert(fc.property(fc.oneof(recentDate, date), zones, (day, zone) => {
      expect(startOfDate(day, zone)).toBe(luxon.startOfDate(day, zone));
    }), { numRuns: 5000 });
    // Midnights that do not exist (the clock went from 23:59 to 01:00) or come right after a change.
    for (const [day, zone] of [['2024-09-08', 'America/Santiago'], ['2023-03-12', 'America/Havana'], ['2023-03-26', 'Asia/Beirut'], ['2024-10-06', 'America/Asuncion'], ['2024-04-07', 'America/Santiago']]) {
      expect(startOfDate(day!, zone!)).toBe(luxon.startOfDate(day!, zone!));
    }
    // Worked example: 1 July in London is BST (UTC+1), so its midnight is 23:00 UTC the day before.
    expect(startOfDate('2026-07-01', 'Europe/London')).toBe('2026-06-30T23:00:00.000Z');
  });

  it('addDaysToInstant', () => {
    const instant = fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString());
    fc.assert(fc.property(fc.oneof(instant, fc.constantFrom('2026-02-30T00:00:00.000Z', '2026-01-01T00:00:00Z', '9999-12-31T12:00:00.000Z')), fc.integer({ min: -1000, max: 1000 }), (at, days) => {
      expect(outcome(() => addDaysToInstant(at, days))).toEqual(outcome(() => luxon.addDaysToInstant(at, days)));
    }), runs);
    // Worked example: 30 days after 31 January 10:00 UTC is 2 March (2026 is not a leap year).
    expect(addDaysToInstant('2026-01-31T10:00:00.000Z', 30)).toBe('2026-03-02T10:00:00.000Z');
  });

  it('agrees on the worked examples of the calendar tests, and past year 9999', () => {
    expect(periodStart('2028-01-31', { unit: 'month', count: 1 }, 1)).toBe('2028-02-29');
    expect(periodStart('9999-12-31', { unit: 'month', count: 1 }, 1)).toBe(luxon.periodStart('9999-12-31', { unit: 'month', count: 1 }, 1));
    expect(periodStart('9999-12-31', { unit: 'month', count: 1 }, 1)).toBe('10000-01-31');
    expect(addDays('2026-02-30', 1)).toBe(luxon.addDays('2026-02-30', 1));
  });
});
