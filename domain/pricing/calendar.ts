import { DateTime } from 'luxon';
import { addMonths, type CivilDate, dayNumber, fromDayNumber, inCivilRange, printCivilDate, readCivilDate } from './civil-date';
import { readInstant } from './civil-instant';

export type IntervalUnit = 'day' | 'week' | 'month' | 'year';
export type Interval = Readonly<{ unit: IntervalUnit; count: number }>;
export type Period = Readonly<{ start: string; end: string }>;

const DATE = 'yyyy-MM-dd';
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const WIDE_DATE = /^(\d{4,6})-(\d{2})-(\d{2})$/;
// Years past 9999 print with five digits; they are read back as the same dates, so they compare as dates.
const parse = (date: string): DateTime => {
  const wide = WIDE_DATE.exec(date);
  return wide
    ? DateTime.fromObject({ year: Number(wide[1]), month: Number(wide[2]), day: Number(wide[3]) }, { zone: 'UTC' })
    : DateTime.fromISO(date, { zone: 'UTC' });
};
const print = (date: DateTime): string => date.toFormat(DATE);

const PLURAL = { day: 'days', week: 'weeks', month: 'months', year: 'years' } as const;

const startAfter = (base: DateTime, interval: Interval, n: number): DateTime => base.plus({ [PLURAL[interval.unit]]: n * interval.count });

/**
 * The calendar computed with Luxon, a DateTime per step: the answer for dates the day arithmetic
 * does not cover (impossible dates, years past 200000), and the reference it is property-tested against.
 */
export const byLuxon = {
  periodStart: (anchor: string, interval: Interval, n: number): string => print(startAfter(parse(anchor), interval, n)),
  periodContaining: (anchor: string, interval: Interval, date: string): Period & { index: number } => {
    const base = parse(anchor);
    const target = parse(date);
    const elapsed = Math.floor(target.diff(base, PLURAL[interval.unit]).as(PLURAL[interval.unit]));
    let n = Math.max(0, Math.floor(elapsed / interval.count));
    for (let step = 0; step < 2 && startAfter(base, interval, n + 1) <= target; step++) n++;
    for (let step = 0; step < 2 && n > 0 && startAfter(base, interval, n) > target; step++) n--;
    return { index: n, start: print(startAfter(base, interval, n)), end: print(startAfter(base, interval, n + 1)) };
  },
  compareDates: (a: string, b: string): number => parse(a).toMillis() - parse(b).toMillis(),
  daysBetween: (start: string, end: string): number => Math.round(parse(end).diff(parse(start), 'days').days),
  addDays: (date: string, days: number): string => print(parse(date).plus({ days })),
  dateIn: (instant: string, timezone: string): string => DateTime.fromISO(instant, { zone: 'UTC' }).setZone(timezone).toFormat(DATE),
  startOfDate: (date: string, timezone: string): string => DateTime.fromISO(date, { zone: timezone }).startOf('day').toUTC().toISO()!,
  addDaysToInstant: (instant: string, days: number): string => DateTime.fromISO(instant, { zone: 'UTC' }).plus({ days }).toUTC().toISO()!,
  parseInstant: (text: string): string | null => {
    if (!INSTANT.test(text)) return null;
    const parsed = DateTime.fromISO(text, { setZone: true });
    const instant = parsed.isValid ? parsed.toUTC().toISO() : null;
    return instant !== null && isDateInRange(instant.slice(0, 10)) ? instant : null;
  },
};

/** The same step in plain date arithmetic (see civil-date.ts); null past the years it covers. */
const civilStartAfter = (base: CivilDate, interval: Interval, n: number): CivilDate | null => {
  const steps = n * interval.count;
  if (!Number.isSafeInteger(steps)) return null;
  const date =
    interval.unit === 'day' || interval.unit === 'week'
      ? fromDayNumber(dayNumber(base) + steps * (interval.unit === 'week' ? 7 : 1))
      : addMonths(base, steps * (interval.unit === 'year' ? 12 : 1));
  return inCivilRange(date) ? date : null;
};

/**
 * The start of the n-th billing period after the anchor, always computed from the anchor so month
 * ends clamp without drifting: 31 Jan → 28/29 Feb → 31 Mar.
 */
export const periodStart = (anchor: string, interval: Interval, n: number): string => {
  const base = readCivilDate(anchor);
  const start = base && civilStartAfter(base, interval, n);
  return start ? printCivilDate(start) : byLuxon.periodStart(anchor, interval, n);
};

/** Calendar units from `base` to `target` rounded down, as the starting guess for the period index. */
const elapsedUnits = (base: CivilDate, target: CivilDate, unit: IntervalUnit): number => {
  if (unit === 'day' || unit === 'week') return Math.floor((dayNumber(target) - dayNumber(base)) / (unit === 'week' ? 7 : 1));
  const months = (target.year - base.year) * 12 + (target.month - base.month) - (target.day < base.day ? 1 : 0);
  return unit === 'year' ? Math.floor(months / 12) : months;
};

const civilPeriodContaining = (base: CivilDate, interval: Interval, target: CivilDate): (Period & { index: number }) | null => {
  const at = dayNumber(target);
  const startDay = (n: number) => {
    const start = civilStartAfter(base, interval, n);
    return start ? dayNumber(start) : null;
  };
  let n = Math.max(0, Math.floor(elapsedUnits(base, target, interval.unit) / interval.count));
  for (let step = 0; step < 2 && (startDay(n + 1) ?? Infinity) <= at; step++) n++;
  for (let step = 0; step < 2 && n > 0 && (startDay(n) ?? -Infinity) > at; step++) n--;
  const start = civilStartAfter(base, interval, n);
  const end = civilStartAfter(base, interval, n + 1);
  return start && end ? { index: n, start: printCivilDate(start), end: printCivilDate(end) } : null;
};

/**
 * The period holding a date (on or after the anchor): start inclusive, end exclusive (the renewal
 * date). The index comes from the calendar difference in the interval's unit, then moves at most
 * two steps either way (a clamped month end can put it one off), so the work never depends on how
 * far apart the dates are. Dates are compared as instants, never as strings.
 */
export const periodContaining = (anchor: string, interval: Interval, date: string): Period & { index: number } => {
  const civilBase = readCivilDate(anchor);
  const civilTarget = readCivilDate(date);
  return (civilBase && civilTarget && civilPeriodContaining(civilBase, interval, civilTarget)) || byLuxon.periodContaining(anchor, interval, date);
};

/** The range of calendar dates the API accepts and computes; a date outside it is refused, never printed. */
export const FIRST_DATE = '1970-01-01';
export const LAST_DATE = '9999-12-31';

/** Orders two calendar dates as dates (negative, zero, positive), whatever the width of their years. */
export const compareDates = (a: string, b: string): number => {
  const [left, right] = [readCivilDate(a), readCivilDate(b)];
  return left && right ? (dayNumber(left) - dayNumber(right)) * 86_400_000 : byLuxon.compareDates(a, b);
};

/** A date from FIRST_DATE to LAST_DATE (a computed one may print with five digits and fall outside). */
export const isDateInRange = (text: string): boolean =>
  WIDE_DATE.test(text) && (readCivilDate(text) !== null || parse(text).isValid) && compareDates(text, FIRST_DATE) >= 0 && compareDates(text, LAST_DATE) <= 0;

export const daysBetween = (start: string, end: string): number => {
  const [from, to] = [readCivilDate(start), readCivilDate(end)];
  return from && to ? dayNumber(to) - dayNumber(from) : byLuxon.daysBetween(start, end);
};

export const addDays = (date: string, days: number): string => {
  const from = Number.isInteger(days) ? readCivilDate(date) : null;
  const to = from && fromDayNumber(dayNumber(from) + days);
  return to && inCivilRange(to) ? printCivilDate(to) : byLuxon.addDays(date, days);
};

// The form every instant here takes (`parseInstant`'s answers, `Date.prototype.toISOString`): `Date.parse` reads it exactly.
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** One formatter of local dates per timezone (null for a name Intl does not take, which Luxon then reads); a formatter is costly to make and cheap to use. */
const dayFormats = new Map<string, Intl.DateTimeFormat | null>();
const dayFormatOf = (timezone: string): Intl.DateTimeFormat | null => {
  let format = dayFormats.get(timezone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, year: 'numeric', month: 'numeric', day: 'numeric', era: 'short' });
    } catch {
      format = null;
    }
    dayFormats.set(timezone, format);
  }
  return format;
};

/** The local date of an instant through Intl's formatter; null when it cannot say (Luxon answers then). */
const dateByIntl = (instant: string, timezone: string): string | null => {
  const format = UTC_INSTANT.test(instant) ? dayFormatOf(timezone) : null;
  if (!format) return null;
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(Date.parse(instant))) parts[part.type] = part.value;
  if (parts.era !== 'AD') return null;
  return printCivilDate({ year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) });
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Instants before this print in `toISOString`'s four-digit years, as Luxon prints them. */
const LAST_INSTANT_MS = Date.UTC(10_000, 0, 1);

/** One formatter of local dates and times per timezone (null for a name Intl does not take, which Luxon then reads). */
const timeFormats = new Map<string, Intl.DateTimeFormat | null>();
const timeFormatOf = (timezone: string): Intl.DateTimeFormat | null => {
  let format = timeFormats.get(timezone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      format = null;
    }
    timeFormats.set(timezone, format);
  }
  return format;
};

/** How far local time is ahead of UTC at an instant, in milliseconds, read as Luxon's IANA zone reads it (to the second). */
const offsetAt = (format: Intl.DateTimeFormat, instant: number): number | null => {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = part.value;
  if (parts.era !== 'AD') return null;
  const hour = Number(parts.hour) % 24;
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), hour, Number(parts.minute), Number(parts.second));
  return local - (instant - (((instant % 1000) + 1000) % 1000));
};

/** `steadyStartOfDate`, remembered. */
const startOfDateByIntl = (date: string, timezone: string): string | null => {
  const key = `${timezone} ${date}`;
  const known = startsOfDates.get(key);
  if (known !== undefined) return known;
  const start = steadyStartOfDate(date, timezone);
  if (startsOfDates.size >= 10_000) startsOfDates.clear();
  startsOfDates.set(key, start);
  return start;
};

/** Answers of `steadyStartOfDate`, a pure function asked the same day in the same timezone over and over on a busy day. */
const startsOfDates = new Map<string, string | null>();

/**
 * Local midnight of a date through Intl's formatter, when the timezone's offset is the same for 30
 * hours either side of it (so exactly one instant is that midnight, whatever offset Luxon starts
 * guessing from); null otherwise (a change of offset near it, which Luxon resolves).
 */
const steadyStartOfDate = (date: string, timezone: string): string | null => {
  const civil = readCivilDate(date);
  const format = civil && timeFormatOf(timezone);
  if (!civil || !format) return null;
  const localMidnight = dayNumber(civil) * DAY_MS;
  const offset = offsetAt(format, localMidnight);
  if (offset === null) return null;
  const instant = localMidnight - offset;
  const steady = [instant, instant - 30 * HOUR_MS, instant + 30 * HOUR_MS].every((at) => offsetAt(format, at) === offset);
  return steady ? new Date(instant).toISOString() : null;
};

/** Midnight at the start of a calendar date in a timezone, as an ISO instant in UTC (Intl's formatter where it can say, a tenth of Luxon's time). */
export const startOfDate = (date: string, timezone: string): string => startOfDateByIntl(date, timezone) ?? byLuxon.startOfDate(date, timezone);

/** Per timezone, the last date `dateIn` answered and the instants from its midnight to the next, when no change of offset is near either. */
const lastDays = new Map<string, Readonly<{ date: string; from: number; to: number }>>();

const msOf = (instant: string | null): number => (instant === null ? NaN : Date.parse(instant));

/** The calendar date of an instant in a timezone (Intl's formatter, kept per timezone, is a tenth of Luxon's time; another instant of the day last answered needs neither). */
export const dateIn = (instant: string, timezone: string): string => {
  const at = UTC_INSTANT.test(instant) ? Date.parse(instant) : NaN;
  const last = lastDays.get(timezone);
  if (last && at >= last.from && at < last.to) return last.date;
  const date = dateByIntl(instant, timezone);
  if (date === null) return byLuxon.dateIn(instant, timezone);
  const from = msOf(startOfDateByIntl(date, timezone));
  const to = msOf(startOfDateByIntl(addDays(date, 1), timezone));
  if (from <= at && at < to) lastDays.set(timezone, { date, from, to });
  return date;
};

/** A `YYYY-MM-DD` date the API accepts: a real date from FIRST_DATE to LAST_DATE. */
export const isCalendarDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && isDateInRange(text);

/** Whole days after a UTC instant (a day in UTC is always 24 hours); Luxon for any other form. */
export const addDaysToInstant = (instant: string, days: number): string => {
  const at = UTC_INSTANT.test(instant) && Number.isInteger(days) ? Date.parse(instant) : NaN;
  // `Date.parse` rolls an impossible date (30 February) over: only an instant it prints back unchanged is read here.
  const later = at >= 0 && at < LAST_INSTANT_MS && new Date(at).toISOString() === instant ? at + days * DAY_MS : NaN;
  return later >= 0 && later < LAST_INSTANT_MS ? new Date(later).toISOString() : byLuxon.addDaysToInstant(instant, days);
};

/**
 * An ISO 8601 date and time with its offset (or Z) as a UTC instant ('…T10:00:00.000Z'); null when it
 * is not one or its UTC date is outside FIRST_DATE..LAST_DATE. A usage batch reads up to 100 of them:
 * plain arithmetic answers (`readInstant`, about 1/30 of Luxon's time), Luxon what it leaves undecided.
 */
export const parseInstant = (text: string): string | null => {
  const read = readInstant(text);
  return read === undefined ? byLuxon.parseInstant(text) : read;
};

/** Midday of a calendar date in a timezone, as an ISO instant in UTC (where a test clock advance lands). */
export const middayOf = (date: string, timezone: string): string =>
  DateTime.fromISO(date, { zone: timezone }).set({ hour: 12, minute: 0, second: 0, millisecond: 0 }).toUTC().toISO()!;
