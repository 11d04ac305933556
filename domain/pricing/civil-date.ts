/**
 * Calendar dates as plain arithmetic on days since 1970-01-01 (the proleptic Gregorian calendar,
 * as Luxon counts it): the billing calendar's hot path without building a DateTime per step.
 * Only valid dates of years 1 to 200000 are read; everything else is left to Luxon, so results
 * stay identical (a property test compares both).
 */
export type CivilDate = Readonly<{ year: number; month: number; day: number }>;

const WIDE_DATE = /^(\d{4,6})-(\d{2})-(\d{2})$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MIN_YEAR = 1;
const MAX_YEAR = 200_000;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const monthLength = (year: number, month: number): number => (month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1]!);

/** Whether the arithmetic covers this year (else the caller falls back to Luxon). */
export const inCivilRange = (date: CivilDate): boolean => date.year >= MIN_YEAR && date.year <= MAX_YEAR;

/** A valid `YYYY-MM-DD` date (four to six digits of year) in the covered years; null otherwise. */
export const readCivilDate = (text: string): CivilDate | null => {
  const match = WIDE_DATE.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > monthLength(date.year, date.month)) return null;
  return inCivilRange(date) ? date : null;
};

/** Days since 1970-01-01 (Howard Hinnant's days_from_civil). */
export const dayNumber = ({ year, month, day }: CivilDate): number => {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
};

/** The date `days` after 1970-01-01 (civil_from_days). */
export const fromDayNumber = (days: number): CivilDate => {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day: dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1 };
};

/** `months` calendar months later, the day clamped to the month's end (31 Jan + 1 → 28/29 Feb), as Luxon's `plus`. */
export const addMonths = (date: CivilDate, months: number): CivilDate => {
  const total = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return { year, month, day: Math.min(date.day, monthLength(year, month)) };
};

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `yyyy-MM-dd` as Luxon prints it: at least four digits of year. */
export const printCivilDate = ({ year, month, day }: CivilDate): string => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
