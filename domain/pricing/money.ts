/**
 * Exact money: a bigint count of ten-thousandths. Amounts are parsed from and formatted to
 * 4-place decimal strings at the edges and never pass through binary floating point.
 */
export type Money = bigint;

export const SCALE = 10_000n;
const DECIMAL = /^(-)?(\d{1,15})(?:\.(\d{1,4}))?$/;

export class InvalidAmount extends Error {
  override name = 'InvalidAmount';
}

/** '12.5' → 125000n. At most 4 decimal places; anything else throws. */
export const parseMoney = (text: string): Money => {
  const match = DECIMAL.exec(text);
  if (!match) throw new InvalidAmount(`not a decimal with at most 4 places: ${text}`);
  const value = BigInt(match[2]!) * SCALE + BigInt((match[3] ?? '').padEnd(4, '0'));
  return match[1] ? -value : value;
};

/** 125000n → '12.5000'. */
export const formatMoney = (value: Money): string => {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / SCALE}.${(abs % SCALE).toString().padStart(4, '0')}`;
};

/** numerator / denominator rounded half away from zero. */
export const divideRounded = (numerator: bigint, denominator: bigint): bigint => {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (2n * n + d) / (2n * d);
  return negative ? -rounded : rounded;
};

export const sum = (values: readonly Money[]): Money => values.reduce((total, value) => total + value, 0n);

export const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
export const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
