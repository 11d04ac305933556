import { DateTime } from 'luxon';

export type IntervalUnit = 'day' | 'week' | 'month' | 'year';
export type Interval = Readonly<{ unit: IntervalUnit; count: number }>;
export type Period = Readonly<{ start: string; end: string }>;

const DATE = 'yyyy-MM-dd';
const parse = (date: string): DateTime => DateTime.fromISO(date, { zone: 'UTC' });
const print = (date: DateTime): string => date.toFormat(DATE);

/**
 * The start of the n-th billing period after the anchor, always computed from the anchor so month
 * ends clamp without drifting: 31 Jan → 28/29 Feb → 31 Mar.
 */
export const periodStart = (anchor: string, interval: Interval, n: number): string => {
  const steps = n * interval.count;
  const base = parse(anchor);
  switch (interval.unit) {
    case 'day':
      return print(base.plus({ days: steps }));
    case 'week':
      return print(base.plus({ weeks: steps }));
    case 'month':
      return print(base.plus({ months: steps }));
    case 'year':
      return print(base.plus({ years: steps }));
    default: {
      const exhaustive: never = interval.unit;
      return exhaustive;
    }
  }
};

/** The period holding a date (on or after the anchor): start inclusive, end exclusive (the renewal date). */
export const periodContaining = (anchor: string, interval: Interval, date: string): Period & { index: number } => {
  const days = Math.max(0, Math.floor(parse(date).diff(parse(anchor), 'days').days));
  const approxDays = { day: 1, week: 7, month: 28, year: 365 }[interval.unit] * interval.count;
  let n = Math.max(0, Math.floor(days / approxDays) - 1);
  while (periodStart(anchor, interval, n + 1) <= date) n++;
  while (n > 0 && periodStart(anchor, interval, n) > date) n--;
  return { index: n, start: periodStart(anchor, interval, n), end: periodStart(anchor, interval, n + 1) };
};

export const daysBetween = (start: string, end: string): number => Math.round(parse(end).diff(parse(start), 'days').days);

export const addDays = (date: string, days: number): string => print(parse(date).plus({ days }));

/** The calendar date of an instant in a timezone. */
export const dateIn = (instant: string, timezone: string): string =>
  DateTime.fromISO(instant, { zone: 'UTC' }).setZone(timezone).toFormat(DATE);

/** Midnight at the start of a calendar date in a timezone, as an ISO instant in UTC. */
export const startOfDate = (date: string, timezone: string): string =>
  DateTime.fromISO(date, { zone: timezone }).startOf('day').toUTC().toISO()!;

export const isCalendarDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && parse(text).isValid;

export const addDaysToInstant = (instant: string, days: number): string =>
  DateTime.fromISO(instant, { zone: 'UTC' }).plus({ days }).toUTC().toISO()!;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** An ISO 8601 date and time with its offset (or Z) as a UTC instant ('…T10:00:00.000Z'); null when it is not one. */
export const parseInstant = (text: string): string | null => {
  if (!INSTANT.test(text)) return null;
  const parsed = DateTime.fromISO(text, { setZone: true });
  return parsed.isValid ? parsed.toUTC().toISO() : null;
};
