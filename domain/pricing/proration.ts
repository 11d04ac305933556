import { divideRounded, type Money } from './money';

/** amount × days_left / days_in_period, rounded once, half away from zero. */
export const prorate = (amount: Money, daysLeft: number, daysInPeriod: number): Money =>
  divideRounded(amount * BigInt(daysLeft), BigInt(daysInPeriod));

/**
 * One prorated change inside a period. Its exact value is (after − before) × days_left / days_in_period;
 * the period keeps the running sum of the exact numerators, and each change bills the rounded running
 * total less what the earlier changes billed, so consecutive changes never over-credit or over-charge:
 * whatever the sequence, the period's changes add up to the rounded exact total.
 */
export const prorateChange = (input: {
  /** The period's numerator so far (0n for its first change). */
  previousNumerator: bigint;
  /** Whole-period prices at the units billed until now and at the new units. */
  before: Money;
  after: Money;
  daysLeft: number;
  daysInPeriod: number;
}): { numerator: bigint; amount: Money } => {
  const days = BigInt(input.daysInPeriod);
  const numerator = input.previousNumerator + (input.after - input.before) * BigInt(input.daysLeft);
  return { numerator, amount: divideRounded(numerator, days) - divideRounded(input.previousNumerator, days) };
};
