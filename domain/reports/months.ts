import { startOfDate } from '../pricing/calendar';

/** A calendar month, `YYYY-MM`: the reports' rows are months of the organisation's timezone. */
export type Month = string;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A `YYYY-MM` month from 1970-01 to 9999-12 (the dates the API computes). */
export const isMonth = (text: string): boolean => MONTH.test(text) && text >= '1970-01';

const index = (month: Month): number => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const fromIndex = (n: number): Month => `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`;

export const addMonths = (month: Month, n: number): Month => fromIndex(index(month) + n);

/** How many months `from` to `to` hold, both included (0 when `to` is before `from`). */
export const monthCount = (from: Month, to: Month): number => Math.max(index(to) - index(from) + 1, 0);

/** Every month from `from` to `to`, both included, oldest first. */
export const monthsFrom = (from: Month, to: Month): Month[] => Array.from({ length: monthCount(from, to) }, (_, i) => addMonths(from, i));

/** Answers of `monthStart`, asked for the same few months over and over. */
const starts = new Map<string, number>();

/** The first instant of a month in a timezone, in epoch milliseconds. */
export const monthStart = (month: Month, timezone: string): number => {
  const key = `${timezone} ${month}`;
  let start = starts.get(key);
  if (start === undefined) {
    start = Date.parse(startOfDate(`${month}-01`, timezone));
    if (starts.size >= 10_000) starts.clear();
    starts.set(key, start);
  }
  return start;
};

/** Per timezone, the month `monthOf` last answered and the instants from its start to the next month's. */
const lastMonths = new Map<string, Readonly<{ month: Month; from: number; to: number }>>();

/**
 * The month an instant (epoch milliseconds) falls in, in a timezone: its month in UTC, or the one
 * before or after (no timezone is a month away from UTC), told by the months' first instants alone.
 * Another instant of the month last answered needs neither (a rebuild asks one month thousands of times).
 */
export const monthOf = (instant: number, timezone: string): Month => {
  const last = lastMonths.get(timezone);
  if (last && instant >= last.from && instant < last.to) return last.month;
  const utc = new Date(instant).toISOString().slice(0, 7);
  const month = instant < monthStart(utc, timezone) ? addMonths(utc, -1) : instant >= monthStart(addMonths(utc, 1), timezone) ? addMonths(utc, 1) : utc;
  if (lastMonths.size >= 1_000) lastMonths.clear();
  lastMonths.set(timezone, { month, from: monthStart(month, timezone), to: monthStart(addMonths(month, 1), timezone) });
  return month;
};
