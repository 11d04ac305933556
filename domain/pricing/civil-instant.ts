import { dayNumber, fromDayNumber, printCivilDate, readCivilDate } from './civil-date';

/**
 * ISO 8601 instants (`2026-03-15T10:00:00+01:00`) read with plain arithmetic, as Luxon reads them
 * (`DateTime.fromISO(text, { setZone: true }).toUTC().toISO()`), for `parseInstant`'s hot path: a
 * usage batch holds up to 100. A property test compares both on valid and invalid texts.
 */
const PARTS = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;

const DAY_MS = 86_400_000;
const FIRST_YEAR = 1970;
const LAST_YEAR = 9999;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * The instant in UTC as `yyyy-MM-ddTHH:mm:ss.SSSZ`, or null when its UTC date is outside 1970..9999;
 * undefined when the text is not one this reads (another form, an impossible date or time): the
 * caller asks Luxon then. As Luxon: milliseconds are the fraction's first three digits (rounded down
 * the way it does), `24:00` is the next midnight, and the offset's minutes are not range-checked.
 */
export const readInstant = (text: string): string | null | undefined => {
  const parts = PARTS.exec(text);
  const date = parts && readCivilDate(parts[1]!);
  if (!parts || !date) return undefined;
  const [hour, minute, second] = [Number(parts[2]), Number(parts[3]), Number(parts[4] ?? 0)];
  const millisecond = parts[5] === undefined ? 0 : Math.floor(parseFloat(`0.${parts[5]}`) * 1000);
  const midnight = hour === 24 && minute === 0 && second === 0 && millisecond === 0;
  if ((hour > 23 && !midnight) || minute > 59 || second > 59) return undefined;
  const offsetMinutes = parts[6] ? 0 : (parts[7] === '-' ? -1 : 1) * (Number(parts[8]) * 60 + Number(parts[9]));
  const utc = dayNumber(date) * DAY_MS + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millisecond;
  const day = Math.floor(utc / DAY_MS);
  const civil = fromDayNumber(day);
  if (civil.year < FIRST_YEAR || civil.year > LAST_YEAR) return null;
  const ms = utc - day * DAY_MS;
  const time = `${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor(ms / 60_000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}.${pad(ms % 1000, 3)}`;
  return `${printCivilDate(civil)}T${time}Z`;
};
