import { max, type Money } from './money';
import { billedQuantity, meterAmount, type MeterPricing } from './pricing';
import { type Quantity, roundUp, units } from './quantity';

/** What one meter bills for one period's reported usage, before any discount. */
export type UsageCharge = Readonly<{
  /** `q = max(reported, minimum_units)`. */
  billed: Quantity;
  /** The line's `usage_quantity`: the quantity priced (a per_unit meter's past its included units, else q). */
  priced: Quantity;
  /** The line's `units`: the quantity priced rounded up to a whole unit. */
  units: bigint;
  /** Priced exactly and rounded once, half away from zero. */
  amount: Money;
}>;

/**
 * A meter's charge for a period: `q = max(reported, minimum_units)`; a per_unit meter bills
 * `max(q − included_units, 0) × price`, the other models price q like the plan type of that name.
 */
export const usageCharge = (meter: MeterPricing, reported: Quantity): UsageCharge => {
  const billed = billedQuantity(meter, reported);
  const priced = meter.model === 'per_unit' ? max(billed - units(meter.includedUnits ?? 0), 0n) : billed;
  return { billed, priced, units: roundUp(priced), amount: meterAmount(meter, billed) };
};

/** What a period's usage billed above the meter's minimum alone (`usage_value`'s part of a period), before discount. */
export const amountAboveMinimum = (meter: MeterPricing, reported: Quantity): Money =>
  usageCharge(meter, reported).amount - usageCharge(meter, 0n).amount;
