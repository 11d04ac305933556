import { divideRounded, type Money } from './money';

/** A percentage in hundredths of a percent: '12.50' → 1250n. 0.00 to 100.00. */
export type Percent = bigint;

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

export const parsePercent = (text: string): Percent | null => {
  const match = PERCENT.exec(text);
  if (!match) return null;
  const value = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return value <= 10_000n ? value : null;
};

export const formatPercent = (value: Percent): string => `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;

/** discount_amount = round(amount × percent / 100), half away from zero. */
export const discountOf = (amount: Money, percent: Percent): Money => divideRounded(amount * percent, 10_000n);

/** What is billed after the discount: amount − discount_amount, the one place "net of discount" is computed. */
export const netOf = (amount: Money, discount: Money): Money => amount - discount;

/** The amount net of `percent` off. */
export const netOfDiscount = (amount: Money, percent: Percent): Money => netOf(amount, discountOf(amount, percent));
