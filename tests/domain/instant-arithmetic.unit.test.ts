import fc from 'fast-check';
import { byLuxon, dateIn, parseInstant } from '../../domain/pricing/calendar';
import { readInstant } from '../../domain/pricing/civil-instant';

/**
 * `parseInstant` and `dateIn` read instants with plain arithmetic (domain/pricing/civil-instant.ts)
 * and `Date.parse` on the usage hot path; `byLuxon` is the Luxon reading they replaced (kept as the
 * fallback). On any text of the instant's shape, valid or not, both must answer exactly the same.
 */
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const digits = (min: number, max: number, width: number) => fc.integer({ min, max }).map((n) => pad(n, width));

/** Texts of the instant's shape with every part sometimes out of range: month 13, 31 April, 24:00 and 24:01, second 60, offsets past ±23:59. */
const instantText = fc
  .record({
    year: fc.oneof(digits(1969, 2100, 4), digits(0, 9999, 4)),
    month: fc.oneof(digits(1, 12, 2), digits(0, 13, 2)),
    day: fc.oneof(digits(1, 28, 2), digits(0, 32, 2), fc.constantFrom('29', '30', '31')),
    hour: fc.oneof(digits(0, 23, 2), fc.constantFrom('00', '23', '24', '25')),
    minute: fc.oneof(digits(0, 59, 2), fc.constantFrom('00', '59', '60')),
    second: fc.option(fc.oneof(digits(0, 59, 2), fc.constantFrom('00', '60')), { nil: undefined }),
    fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
    offset: fc.oneof(
      fc.constant('Z'),
      fc.tuple(fc.constantFrom('+', '-'), digits(0, 14, 2), fc.constantFrom('00', '15', '30', '45'), fc.constantFrom(':', '')).map((p) => p.join('')),
      fc.tuple(fc.constantFrom('+', '-'), digits(0, 99, 2), fc.constantFrom(':', ''), digits(0, 99, 2)).map((p) => p.join('')),
    ),
  })
  .map(({ year, month, day, hour, minute, second, fraction, offset }) => {
    const seconds = second === undefined ? '' : `:${second}${fraction === undefined ? '' : `.${fraction}`}`;
    return `${year}-${month}-${day}T${hour}:${minute}${seconds}${offset}`;
  });

const utcInstant = fc
  .date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
  .map((date) => date.toISOString());
const timezone = fc.constantFrom('UTC', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Australia/Lord_Howe');

describe('instants read with arithmetic, against the Luxon reading they replaced', () => {
  it('parseInstant answers what Luxon answers, on valid and invalid texts', () => {
    fc.assert(
      fc.property(instantText, (text) => {
        expect(parseInstant(text)).toBe(byLuxon.parseInstant(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('parseInstant on the edges: 24:00, fractions, offsets and the range', () => {
    const examples = [
      '2026-03-15T10:00:00Z',
      '2026-03-15T10:00+01:00',
      '2026-03-15T24:00:00Z',
      '2026-03-15T24:00:00.001Z',
      '2026-03-15T10:00:00.29Z',
      '2026-03-15T10:00:00.999999999+05:30',
      '2026-03-15T10:00:00-00:30',
      '2026-03-15T10:00:00+0530',
      '2026-03-15T10:00:00+05:99',
      '1970-01-01T00:30:00+01:00',
      '1970-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:00:00-02:00',
      '2028-02-29T12:00:00Z',
      '2027-02-29T12:00:00Z',
      '2026-04-31T12:00:00Z',
    ];
    for (const text of examples) expect(parseInstant(text)).toBe(byLuxon.parseInstant(text));
    expect(parseInstant('2026-03-15T10:00:00+01:00')).toBe('2026-03-15T09:00:00.000Z');
    expect(parseInstant('2026-03-15T24:00:00Z')).toBe('2026-03-16T00:00:00.000Z');
    expect(parseInstant('1970-01-01T00:30:00+01:00')).toBeNull();
    // Answered by the arithmetic itself, not by falling back to Luxon; an impossible date is left to Luxon.
    expect(readInstant('2026-03-15T10:00:00.5-00:30')).toBe('2026-03-15T10:30:00.500Z');
    expect(readInstant('9999-12-31T23:00:00-02:00')).toBeNull();
    expect(readInstant('2026-04-31T12:00:00Z')).toBeUndefined();
  });

  it('dateIn answers what Luxon answers, in zones east and west and across their changes', () => {
    fc.assert(
      fc.property(utcInstant, timezone, (instant, zone) => {
        expect(dateIn(instant, zone)).toBe(byLuxon.dateIn(instant, zone));
      }),
      { numRuns: 3000 },
    );
    expect(dateIn('9999-12-31T23:00:00.000Z', 'Pacific/Kiritimati')).toBe('10000-01-01');
    // Instants close together in one zone, as a busy day asks them (most answered from the day remembered), around changes of offset.
    const nearChanges = fc
      .date({ min: new Date('2020-01-01T00:00:00.000Z'), max: new Date('2030-12-31T00:00:00.000Z'), noInvalidDate: true })
      .map((date) => new Date(Date.UTC(date.getUTCFullYear(), [2, 3, 8, 9, 10][date.getUTCMonth() % 5], date.getUTCDate(), date.getUTCHours())).toISOString());
    const changingZone = fc.oneof(timezone, fc.constantFrom('America/Santiago', 'America/Havana', 'Asia/Beirut', 'America/Asuncion', 'Europe/Berlin'));
    fc.assert(
      fc.property(fc.oneof(utcInstant, nearChanges), changingZone, fc.array(fc.integer({ min: -3 * 1440, max: 3 * 1440 }), { minLength: 1, maxLength: 40 }), (start, zone, minutes) => {
        for (const offset of minutes) {
          const instant = new Date(Date.parse(start) + offset * 60_000).toISOString();
          if (instant < '1970' || instant > '9999') continue;
          expect(dateIn(instant, zone)).toBe(byLuxon.dateIn(instant, zone));
        }
      }),
      { numRuns: 1000 },
    );
    expect(dateIn('2026-03-29T00:30:00Z', 'Europe/London')).toBe(byLuxon.dateIn('2026-03-29T00:30:00Z', 'Europe/London'));
  });
});
