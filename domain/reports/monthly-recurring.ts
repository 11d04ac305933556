import type { Interval } from '../pricing/calendar';
import { divideRounded, type Money } from '../pricing/money';

/**
 * A whole period's amount as a month's: `month` × k → ÷ k; `year` × k → ÷ 12k; `week` × k → × 52 ÷ 12k;
 * `day` × k → × 365 ÷ 12k. One rounding, half away from zero, at the end. Worked examples:
 * 100.0000 a quarter (month × 3) → 33.3333; 1,000.0000 a year → 83.3333; 10.0000 a week →
 * 520 ÷ 12 = 43.3333; 1.0000 a day → 365 ÷ 12 = 30.4167; 0.0001 a year → 0.0000.
 */
export const monthlyRecurring = (periodAmount: Money, interval: Interval): Money => {
  const count = BigInt(interval.count);
  switch (interval.unit) {
    case 'month':
      return divideRounded(periodAmount, count);
    case 'year':
      return divideRounded(periodAmount, 12n * count);
    case 'week':
      return divideRounded(periodAmount * 52n, 12n * count);
    case 'day':
      return divideRounded(periodAmount * 365n, 12n * count);
    default: {
      const exhaustive: never = interval.unit;
      return exhaustive;
    }
  }
};
