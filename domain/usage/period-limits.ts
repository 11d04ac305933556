import { MAX_AMOUNT, usageChargesOverLimit } from '../pricing/amount-limits';
import { compareDates } from '../pricing/calendar';
import { type Money, parseMoney, SCALE } from '../pricing/money';
import { billedQuantity, type MeterPricing } from '../pricing/pricing';
import { formatQuantity, type Quantity, storedTotal } from '../pricing/quantity';
import { usageCharge } from '../pricing/usage-charge';
import type { RecordedUsage } from './events';
import type { PeriodTotal } from './state';

/** The most one meter may report in one period: its usage line's `units` stays an exact JSON number. */
export const MAX_PERIOD_QUANTITY: Quantity = BigInt(Number.MAX_SAFE_INTEGER) * SCALE;

export type PricedMeter = Readonly<{ meterId: string; meterCode: string; pricing: MeterPricing }>;

/**
 * A subscription's meters as priced period by period, oldest first: each entry prices the periods
 * starting before its `until` (null for the last: every period after the ones before).
 */
export type MeterPrices = readonly Readonly<{ until: string | null; meters: readonly PricedMeter[] }>[];

export const pricesDuring = (prices: MeterPrices, periodStart: string): readonly PricedMeter[] =>
  prices.find((entry) => entry.until === null || compareDates(periodStart, entry.until) < 0)!.meters;

type Totals = ReadonlyMap<string, ReadonlyMap<string, PeriodTotal>>;

/** Period start → meter id → quantity: the stored totals with a batch's accepted events added. */
type Added = Map<string, Map<string, Quantity>>;

const quantityIn = (totals: Totals, added: Added, periodStart: string, meterId: string): Quantity =>
  (totals.get(periodStart)?.get(meterId)?.quantity ?? 0n) + (added.get(periodStart)?.get(meterId) ?? 0n);

const add = (added: Added, event: RecordedUsage, quantity: Quantity): void => {
  let meters = added.get(event.periodStart);
  if (!meters) added.set(event.periodStart, (meters = new Map<string, Quantity>()));
  meters.set(event.meterId, (meters.get(event.meterId) ?? 0n) + quantity);
};

const highestRate = (pricing: MeterPricing): Money =>
  pricing.model === 'per_unit' ? parseMoney(pricing.price ?? '0') : pricing.tiers.reduce((most, tier) => (parseMoney(tier.price) > most ? parseMoney(tier.price) : most), 0n);

/**
 * A meter's amount for a period, or more, exact (×10⁸): the highest rate over the whole billed
 * quantity (a stairstep meter's highest band price stands for it). Volume and stairstep amounts can
 * fall as the quantity rises, so only a bound grows with it.
 */
const amountBound = (pricing: MeterPricing, quantity: Quantity): bigint =>
  pricing.model === 'stairstep' ? highestRate(pricing) * SCALE : highestRate(pricing) * billedQuantity(pricing, quantity);

/**
 * Whether a batch's accepted events surely keep each period they fall in within the limits (every
 * meter's total within MAX_PERIOD_QUANTITY, the period's usage charges within MAX_AMOUNT), at every
 * step: totals only grow, and the amounts are bounded from above by what grows with them. A batch
 * it does not clear is decided again, each event checked exactly (`periodLimits`).
 */
export const surelyWithinLimits = (prices: MeterPrices, totals: Totals, accepted: Iterable<RecordedUsage>): boolean => {
  const added: Added = new Map();
  // A batch's events mostly repeat the last one's quantity, parsed once.
  let text: string | undefined;
  let quantity = 0n;
  for (const event of accepted) {
    if (event.quantity !== text) quantity = storedTotal((text = event.quantity));
    add(added, event, quantity);
  }
  for (const periodStart of added.keys()) {
    let bound = 0n;
    for (const { meterId, pricing } of pricesDuring(prices, periodStart)) {
      const quantity = quantityIn(totals, added, periodStart, meterId);
      if (quantity > MAX_PERIOD_QUANTITY) return false;
      bound += amountBound(pricing, quantity);
    }
    if (bound > MAX_AMOUNT * SCALE) return false;
  }
  return true;
};

export type PeriodLimits = Readonly<{
  /** Why the event would take its period over a limit (a sentence naming it), or null: then it is counted in. */
  refusal(event: RecordedUsage): string | null;
}>;

/**
 * The limits of a period's usage checked exactly, event by event in the order accepted: an event is
 * refused when, with the stored totals and the events accepted before it, its meter's total would
 * pass MAX_PERIOD_QUANTITY or the period's usage charges (every meter, minimums included, before
 * discount: the usage invoice's lines) would pass MAX_AMOUNT. Billing then never meets an amount it
 * cannot invoice.
 */
export const periodLimits = (prices: MeterPrices, totals: Totals): PeriodLimits => {
  const added: Added = new Map();
  // Period start → meter id → its charge at the totals so far: an event reprices its own meter only.
  const charges = new Map<string, Map<string, Money>>();
  const chargesIn = (periodStart: string): Map<string, Money> => {
    let period = charges.get(periodStart);
    if (!period) {
      period = new Map(pricesDuring(prices, periodStart).map(({ meterId, pricing }) => [meterId, usageCharge(pricing, quantityIn(totals, added, periodStart, meterId)).amount]));
      charges.set(periodStart, period);
    }
    return period;
  };
  return {
    refusal: (event) => {
      const quantity = storedTotal(event.quantity);
      const meterTotal = quantityIn(totals, added, event.periodStart, event.meterId) + quantity;
      if (meterTotal > MAX_PERIOD_QUANTITY) {
        return `quantity takes ${event.meterCode}'s usage in the period from ${event.periodStart} to ${formatQuantity(meterTotal)}; the most one meter reports in a period is ${formatQuantity(MAX_PERIOD_QUANTITY)}.`;
      }
      const period = chargesIn(event.periodStart);
      const pricing = pricesDuring(prices, event.periodStart).find((meter) => meter.meterId === event.meterId)!.pricing;
      const amount = usageCharge(pricing, meterTotal).amount;
      let sum = amount;
      for (const [meterId, charge] of period) if (meterId !== event.meterId) sum += charge;
      const over = usageChargesOverLimit('quantity', event.periodStart, sum);
      if (over) return over;
      period.set(event.meterId, amount);
      add(added, event, quantity);
      return null;
    },
  };
};
