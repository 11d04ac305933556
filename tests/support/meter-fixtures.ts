import type { Tier } from '../../domain/catalogue/types';
import type { SubscriptionCreatedData } from '../../domain/subscription/events';

type SubscriptionMeter = SubscriptionCreatedData['meters'][number];

/** A subscription's meter `mtr_<code>` of the given model, no minimum unless given. */
export const subscriptionMeter = (code: string, name: string, model: SubscriptionMeter['model'], extra: Partial<SubscriptionMeter> = {}): SubscriptionMeter => ({
  meterId: `mtr_${code}`,
  meterCode: code,
  name,
  model,
  price: null,
  includedUnits: null,
  tiers: [],
  minimumUnits: 0,
  planMinimumUnits: 0,
  ...extra,
});

/** Bands of 1–`first` at `low` and the rest at `high`. */
export const twoBands = (first: number, low: string, high: string): Tier[] => [
  { fromUnits: 1, toUnits: first, price: low },
  { fromUnits: first + 1, toUnits: null, price: high },
];
