import { MAX_AMOUNT } from './amount-limits';
import { SCALE } from './money';

/** A quantity in ten-thousandths of a unit (usage can be fractional: '12.5' → 125000n). */
export type Quantity = bigint;

export const units = (count: number | bigint): Quantity => BigInt(count) * SCALE;

/** A usage line's `units`: its quantity rounded up to a whole unit. */
export const roundUp = (quantity: Quantity): bigint => (quantity <= 0n ? 0n : (quantity + SCALE - 1n) / SCALE);

const QUANTITY = /^(\d+)(?:\.(\d{1,4}))?$/;

/** The largest quantity one event may report, as the largest amount (999,999,999,999.9999), so what it bills stays in the money format. */
export const MAX_QUANTITY: Quantity = MAX_AMOUNT;

const parseQuantityText = (text: string): Quantity | null => {
  const match = QUANTITY.exec(text);
  if (!match) return null;
  const quantity = BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(4, '0'));
  return quantity <= MAX_QUANTITY ? quantity : null;
};

/**
 * A reported quantity: a decimal string or a JSON number, from zero to MAX_QUANTITY, with at most 4
 * decimal places, as exact ten-thousandths; null for anything else (negative, another type, more
 * places, too large). A number is read without arithmetic: `String` gives the shortest text that
 * reads back as the same double ('0.1', not 0.1000000000000000055…); its exponent form only names
 * fractions below 10⁻⁶ or integers from 10²¹, both refused.
 */
export const quantityOf = (value: unknown): Quantity | null => {
  if (typeof value === 'string') return parseQuantityText(value);
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    return text.includes('e') ? null : parseQuantityText(text);
  }
  return null;
};

/**
 * A total as stored (`formatQuantity`'s text, or fewer places): exact, of any size. A period's
 * total of many events has no bound where one event's quantity has (`quantityOf`).
 */
export const storedTotal = (text: string): Quantity => {
  const match = QUANTITY.exec(text);
  if (!match) throw new Error(`not a stored quantity: ${JSON.stringify(text)}`);
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(4, '0'));
};

// MAX_QUANTITY has twelve digits before the point: a shorter whole part is within it, a longer one over it.
const MAX_WHOLE_DIGITS = 12;
const LEADING_ZEROS = /^0+(?=\d)/;

/**
 * A reported quantity as its exact text with 4 places (`'12.5'` → `'12.5000'`), null when
 * `quantityOf` refuses it: `formatQuantity(quantityOf(value))` read as text, with no bigint made,
 * for the up to 100 quantities of a usage batch.
 */
export const quantityText = (value: unknown): string | null => {
  const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
  const match = text === null ? null : QUANTITY.exec(text);
  if (!match) return null;
  const whole = match[1]!.replace(LEADING_ZEROS, '');
  return whole.length > MAX_WHOLE_DIGITS ? null : `${whole}.${(match[2] ?? '').padEnd(4, '0')}`;
};

/** 125000n → '12.5000'. */
export const formatQuantity = (quantity: Quantity): string =>
  `${quantity / SCALE}.${(quantity % SCALE).toString().padStart(4, '0')}`;
