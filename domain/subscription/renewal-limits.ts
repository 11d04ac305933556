import { type AmountOverLimit, amountOverLimit, MAX_AMOUNT, usageChargesOverLimit } from '../pricing/amount-limits';
import { formatMoney, max, parseMoney } from '../pricing/money';
import { minimumAmount, planAmount } from '../pricing/pricing';
import type { Quantity } from '../pricing/quantity';
import { usageCharge } from '../pricing/usage-charge';
import type { SubscriptionCreatedData } from './events';
import type { Lifecycle } from './lifecycle';

/** The prices a renewal bills at (the current ones, or a CPI uplift's). */
export type RenewalPrices = Readonly<{ pricing: SubscriptionCreatedData['pricing']; meters: SubscriptionCreatedData['meters'] }>;

/**
 * The first amount of a renewal at these prices past the money limit, the message naming `param`
 * (what took it there): a price itself, the renewal invoice (the whole-period fee at `units` and the
 * prorated charges it carries), the renewal value (the fee and the meters' minimums), or the usage
 * charges of a period already recorded (`usage`: period start → meter id → quantity, every meter
 * and its minimum). Null when the renewal fits.
 */
export const renewalOverLimit = (
  { pricing, meters }: RenewalPrices,
  units: number,
  carried: Lifecycle['renewalAdjustments'],
  param: string,
  usage: ReadonlyMap<string, ReadonlyMap<string, Quantity>> = new Map(),
): AmountOverLimit | null => {
  const prices = [pricing.price, ...pricing.tiers.map((t) => t.price), ...meters.flatMap((m) => [...(m.price === null ? [] : [m.price]), ...m.tiers.map((t) => t.price)])];
  const highest = prices.map(parseMoney).reduce(max, 0n);
  if (highest > MAX_AMOUNT) return { param, message: `${param} makes a price of ${formatMoney(highest)}; the most is ${formatMoney(MAX_AMOUNT)}.` };
  const fee = { param, amount: planAmount({ type: pricing.planType, price: pricing.price, freeUnits: pricing.freeUnits, tiers: pricing.tiers }, units) };
  const charges = carried.map((c) => ({ param, amount: parseMoney(c.amount) }));
  const minimums = meters.map((meter) => ({ param, amount: minimumAmount(meter) }));
  const renewal = amountOverLimit([fee, ...charges], 'renewal invoice subtotal') ?? amountOverLimit([fee, ...minimums], 'renewal value');
  if (renewal) return renewal;
  for (const [periodStart, quantities] of usage) {
    const sum = meters.reduce((total, meter) => total + usageCharge(meter, quantities.get(meter.meterId) ?? 0n).amount, 0n);
    const message = usageChargesOverLimit(param, periodStart, sum);
    if (message) return { param, message };
  }
  return null;
};
