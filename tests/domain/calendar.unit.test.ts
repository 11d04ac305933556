import { daysBetween, dateIn, periodContaining, periodStart, startOfDate } from '../../domain/pricing/calendar';

describe('billing calendar', () => {
  const monthly = { unit: 'month', count: 1 } as const;

  it('keeps the anchor day, clamped to the month end, computed from the anchor', () => {
    const starts = [0, 1, 2, 3, 4].map((n) => periodStart('2028-01-31', monthly, n));
    // 2028 is a leap year: 31 Jan → 29 Feb → 31 Mar → 30 Apr → 31 May
    expect(starts).toEqual(['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31']);
    expect(periodStart('2027-01-31', monthly, 1)).toBe('2027-02-28');
  });

  it('multiplies by interval.count, and handles weeks, days and years', () => {
    expect(periodStart('2026-01-15', { unit: 'month', count: 3 }, 2)).toBe('2026-07-15');
    expect(periodStart('2026-01-01', { unit: 'week', count: 2 }, 1)).toBe('2026-01-15');
    expect(periodStart('2026-01-01', { unit: 'day', count: 10 }, 3)).toBe('2026-01-31');
    expect(periodStart('2028-02-29', { unit: 'year', count: 1 }, 1)).toBe('2029-02-28');
    expect(periodStart('2028-02-29', { unit: 'year', count: 1 }, 4)).toBe('2032-02-29');
  });

  it('finds the period holding a date, end exclusive', () => {
    expect(periodContaining('2026-01-31', monthly, '2026-03-30')).toEqual({ index: 1, start: '2026-02-28', end: '2026-03-31' });
    expect(periodContaining('2026-01-31', monthly, '2026-03-31')).toEqual({ index: 2, start: '2026-03-31', end: '2026-04-30' });
    expect(periodContaining('2026-01-31', monthly, '2026-01-31')).toMatchObject({ index: 0, end: '2026-02-28' });
    expect(periodContaining('2020-06-10', { unit: 'week', count: 1 }, '2026-06-10').start).toBe('2026-06-10');
    expect(daysBetween('2026-02-28', '2026-03-31')).toBe(31);
  });

  it('reads dates in the organisation’s timezone', () => {
    // 23:30 UTC on 1 March is already 2 March in Sydney and still 1 March in New York
    expect(dateIn('2026-03-01T23:30:00.000Z', 'Australia/Sydney')).toBe('2026-03-02');
    expect(dateIn('2026-03-01T23:30:00.000Z', 'America/New_York')).toBe('2026-03-01');
    expect(startOfDate('2026-07-01', 'Europe/London')).toBe('2026-06-30T23:00:00.000Z');
  });
});
