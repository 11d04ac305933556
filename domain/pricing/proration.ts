import { divideRounded, type Money } from './money';

/** amount × days_left / days_in_period, rounded once, half away from zero. */
export const prorate = (amount: Money, daysLeft: number, daysInPeriod: number): Money =>
  divideRounded(amount * BigInt(daysLeft), BigInt(daysInPeriod));
