import { compareDates, dateIn, daysBetween, isCalendarDate, middayOf } from '../pricing/calendar';
import { formatPercent } from '../pricing/percent';
import { parseCpiPercent } from '../pricing/cpi';
import type { Cpi } from '../subscription/schedule';
import { DomainError } from '../shared/domain-error';
import type { OpenOrganisation } from './state';

/** How far one advance of a sandbox's test clock may go. */
export const MAX_ADVANCE_DAYS = 366;

const invalid = (message: string, param: string) => new DomainError('invalid', 'invalid_parameter', message, param);

/** A CPI record: a year from 1900 to 9999 and a percentage from -99.99 to 100.00 with at most 2 decimals; answered normalised ('3.5' → '3.50'). */
export const checkCpi = (year: number, percent: string): string => {
  if (!Number.isInteger(year) || year < 1900 || year > 9999) throw invalid('year is a whole number from 1900 to 9999.', 'year');
  const parsed = parseCpiPercent(percent);
  if (parsed === null) throw invalid('percent is a decimal from -99.99 to 100.00 with at most 2 decimal places.', 'percent');
  return `${parsed < 0n ? '-' : ''}${formatPercent(parsed < 0n ? -parsed : parsed)}`;
};

/** The CPI renewals apply: the percentage of the latest year recorded. */
export const latestCpi = (organisation: Pick<OpenOrganisation, 'cpi'>): Cpi | null => {
  const years = Object.keys(organisation.cpi).map(Number);
  if (years.length === 0) return null;
  const year = Math.max(...years);
  return { year, percent: organisation.cpi[String(year)]! };
};

/**
 * Where a test clock advance lands: midday of `date` in the sandbox's timezone (or the clock's time
 * when that is later, on the same day: a clock never goes back), at most 366 days after the clock's
 * date. Only a sandbox has a test clock.
 */
export const decideClockAdvance = (organisation: OpenOrganisation, now: string, date: string): string => {
  if (organisation.livemode) throw invalid('Only a sandbox has a test clock.', 'org');
  if (!isCalendarDate(date)) throw invalid('date is a calendar date, YYYY-MM-DD.', 'date');
  const today = dateIn(now, organisation.settings.timezone);
  if (compareDates(date, today) < 0) throw invalid(`The test clock cannot go back: it is ${today} in the sandbox.`, 'date');
  if (daysBetween(today, date) > MAX_ADVANCE_DAYS) {
    throw invalid(`The test clock moves at most ${MAX_ADVANCE_DAYS} days at a time: from ${today}, ${date} is ${daysBetween(today, date)} days ahead.`, 'date');
  }
  const midday = middayOf(date, organisation.settings.timezone);
  return midday > now ? midday : now;
};

/** `409 invalid_state`: an advance of this sandbox's test clock is running (a second advance, or a reset, waits for it). */
export const advanceRunning = (): DomainError =>
  new DomainError('conflict', 'invalid_state', 'An advance of this sandbox’s test clock is running; try again once it has finished.');
