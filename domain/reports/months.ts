import { dateIn, startOfDate } from '../pricing/calendar';

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

/** The first instant of a month in a timezone, in epoch milliseconds. */
export const monthStart = (month: Month, timezone: string): number => Date.parse(startOfDate(`${month}-01`, timezone));

/** The month an instant (epoch milliseconds) falls in, in a timezone. */
export const monthOf = (instant: number, timezone: string): Month => dateIn(new Date(instant).toISOString(), timezone).slice(0, 7);
