import { formatMoney, type Money } from './money';

/**
 * The largest amount the service computes: 999,999,999,999.9999, the largest price it accepts.
 * Every line amount and every total stays within it, so an amount with the accounting system's tax
 * added still fits the 15-digit money format, and no refusal can come after something was recorded.
 */
export const MAX_AMOUNT: Money = 9_999_999_999_999_999n;

/** An amount that stands for one request field: the field is named when the amount is too large. */
export type AmountOf = Readonly<{ param: string; amount: Money }>;

export type AmountOverLimit = Readonly<{ param: string; message: string }>;

const over = (amount: Money): boolean => amount > MAX_AMOUNT || amount < -MAX_AMOUNT;

/**
 * The first amount over the limit, alone or added to those before it (a total): the field of the
 * amount that takes it over is named. Null when every amount and the total are within the limit.
 */
export const amountOverLimit = (amounts: readonly AmountOf[], total: string): AmountOverLimit | null => {
  let sum = 0n;
  for (const { param, amount } of amounts) {
    if (over(amount)) return { param, message: `${param} makes an amount of ${formatMoney(amount)}; the most is ${formatMoney(MAX_AMOUNT)}.` };
    sum += amount;
    if (over(sum)) return { param, message: `${param} takes the ${total} to ${formatMoney(sum)}; the most is ${formatMoney(MAX_AMOUNT)}.` };
  }
  return null;
};

/**
 * Why a period's usage charges (every meter's charge, minimums included, before discount: the usage
 * invoice's lines) of `sum` are refused, naming `param` that took them there; null within the limit.
 */
export const usageChargesOverLimit = (param: string, periodStart: string, sum: Money): string | null =>
  sum > MAX_AMOUNT ? `${param} takes the usage charges of the period from ${periodStart} to ${formatMoney(sum)}; the most is ${formatMoney(MAX_AMOUNT)}.` : null;
