import type { MeterModel, PlanType, Tier } from '../catalogue/types';
import { divideRounded, max, type Money, parseMoney, SCALE } from './money';
import { type Quantity, units } from './quantity';
import { type Exact, stairstepExact, tieredExact, toBands, volumeExact } from './tiers';

/** What a subscription is priced by: a snapshot of its plan (and its own overrides). */
export type PlanPricing = Readonly<{
  type: PlanType;
  /** The flat fee or per-unit price (a subscription's flat_fee_price when it set one). */
  price: string;
  freeUnits: number;
  tiers: readonly Tier[];
}>;

export type MeterPricing = Readonly<{
  model: MeterModel;
  price: string | null;
  includedUnits: number | null;
  minimumUnits: number;
  tiers: readonly Tier[];
}>;

const round = (exact: Exact): Money => divideRounded(exact, SCALE);

const byModel = (model: 'tiered' | 'volume' | 'stairstep', tiers: readonly Tier[], quantity: Quantity): Exact => {
  const bands = toBands(tiers);
  if (model === 'tiered') return tieredExact(bands, quantity);
  if (model === 'volume') return volumeExact(bands, quantity);
  return stairstepExact(bands, quantity);
};

/** One period's recurring fee at these units: units priced are max(units − free units, 0). */
export const planAmount = (plan: PlanPricing, unitCount: number): Money => {
  const priced = units(Math.max(unitCount - plan.freeUnits, 0));
  switch (plan.type) {
    case 'flat_fee':
      return parseMoney(plan.price);
    case 'no_base_fee':
      return 0n;
    case 'per_unit':
      return round(parseMoney(plan.price) * priced);
    case 'tiered':
    case 'volume':
    case 'stairstep':
      return round(byModel(plan.type, plan.tiers, priced));
    default: {
      const exhaustive: never = plan.type;
      return exhaustive;
    }
  }
};

/** The quantity a meter bills for a period: the larger of what was reported and its minimum. */
export const billedQuantity = (meter: MeterPricing, reported: Quantity): Quantity => max(reported, units(meter.minimumUnits));

/** A meter's amount for a billed quantity: per_unit past the included units, else like the plan type. */
export const meterAmount = (meter: MeterPricing, quantity: Quantity): Money => {
  if (meter.model === 'per_unit') {
    const chargeable = max(quantity - units(meter.includedUnits ?? 0), 0n);
    return round(parseMoney(meter.price ?? '0') * chargeable);
  }
  return round(byModel(meter.model, meter.tiers, quantity));
};

/** What a meter bills for a period in which nothing was reported: its minimum's amount. */
export const minimumAmount = (meter: MeterPricing): Money => meterAmount(meter, billedQuantity(meter, 0n));
