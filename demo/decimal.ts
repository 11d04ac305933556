// The demonstration ledger keeps its own arithmetic, as an external system would: bigint
// ten-thousandths, rounded half away from zero.
const SCALE = 10_000n;
const DECIMAL = /^-?\d{1,15}(\.\d{1,4})?$/;

export const isDecimal = (text: string): boolean => DECIMAL.test(text);

export const parse = (text: string): bigint => {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const value = BigInt(whole) * SCALE + BigInt(fraction.padEnd(4, '0'));
  return negative ? -value : value;
};

export const format = (value: bigint): string => {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / SCALE}.${(abs % SCALE).toString().padStart(4, '0')}`;
};

const divideRounded = (numerator: bigint, denominator: bigint): bigint => {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (2n * d);
  return negative ? -quotient : quotient;
};

/** quantity × unit amount, both scaled by 10^4, back to 4 places. */
export const multiply = (quantity: bigint, unitAmount: bigint): bigint => divideRounded(quantity * unitAmount, SCALE);

export const percentOf = (value: bigint, percent: bigint): bigint => divideRounded(value * percent, 100n);
