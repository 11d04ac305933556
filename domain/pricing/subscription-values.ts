import { divideRounded, formatMoney, type Money, sum } from './money';
import type { Interval } from './calendar';
import { netOfDiscount, type Percent } from './percent';
import { type MeterPricing, minimumAmount, planAmount, type PlanPricing } from './pricing';

export type SubscriptionValues = Readonly<{
  renewal_value: string;
  minimum_usage_value: string;
  usage_value: string;
  usage_value_annual: string;
}>;


/**
 * `renewal_value`: what the next period is certain to bill, net of discount (the plan at the
 * current units plus each meter's minimum); `minimum_usage_value`: the meters' part of it;
 * `usage_value`: the average, over the last three closed usage periods, of usage billed above the
 * meter minimums, net of discount; `usage_value_annual`: that times periods in a year.
 */
export const subscriptionValues = (input: {
  plan: PlanPricing;
  units: number;
  discount: Percent;
  interval: Interval;
  meters: readonly MeterPricing[];
  /** Above-minimum usage amounts of each closed usage period, oldest first. */
  closedPeriodsAboveMinimum?: readonly Money[];
}): SubscriptionValues => {
  const minimums = sum(input.meters.map((meter) => netOfDiscount(minimumAmount(meter), input.discount)));
  const renewal = netOfDiscount(planAmount(input.plan, input.units), input.discount) + minimums;
  const recent = (input.closedPeriodsAboveMinimum ?? []).slice(-3);
  const usage = recent.length === 0 ? 0n : divideRounded(sum(recent.map((amount) => netOfDiscount(amount, input.discount))), BigInt(recent.length));
  const perYear = { day: 365n, week: 52n, month: 12n, year: 1n }[input.interval.unit];
  return {
    renewal_value: formatMoney(renewal),
    minimum_usage_value: formatMoney(minimums),
    usage_value: formatMoney(usage),
    usage_value_annual: formatMoney(divideRounded(usage * perYear, BigInt(input.interval.count))),
  };
};
