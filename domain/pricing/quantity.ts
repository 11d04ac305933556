import { SCALE } from './money';

/** A quantity in ten-thousandths of a unit (usage can be fractional: '12.5' → 125000n). */
export type Quantity = bigint;

export const units = (count: number | bigint): Quantity => BigInt(count) * SCALE;

/** A usage line's `units`: its quantity rounded up to a whole unit. */
export const roundUp = (quantity: Quantity): bigint => (quantity <= 0n ? 0n : (quantity + SCALE - 1n) / SCALE);

const QUANTITY = /^(\d+)(?:\.(\d{1,4}))?$/;

const parseQuantityText = (text: string): Quantity | null => {
  const match = QUANTITY.exec(text);
  return match ? BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(4, '0')) : null;
};

/**
 * The decimal a JSON number names, without passing through arithmetic: `String` gives the shortest
 * text that reads back as the same double ('0.1', not 0.1000000000000000055…); an integer written
 * with an exponent is exact as a bigint; any other exponent form is a fraction below 10⁻⁶.
 */
const numberText = (value: number): string | null => {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  if (!text.includes('e')) return text;
  return Number.isInteger(value) ? BigInt(value).toString() : null;
};

/**
 * A reported quantity: a decimal string or a JSON number, zero or more, with at most 4 decimal
 * places, as exact ten-thousandths; null for anything else (negative, another type, more places).
 */
export const quantityOf = (value: unknown): Quantity | null => {
  if (typeof value === 'string') return parseQuantityText(value);
  if (typeof value === 'number') {
    const text = numberText(value);
    return text === null ? null : parseQuantityText(text);
  }
  return null;
};

/** 125000n → '12.5000'. */
export const formatQuantity = (quantity: Quantity): string =>
  `${quantity / SCALE}.${(quantity % SCALE).toString().padStart(4, '0')}`;
