import type { Tier } from '../catalogue/types';
import { max, min, type Money, parseMoney, SCALE } from './money';
import type { Quantity } from './quantity';

/**
 * A band as a range of quantity: (lower, upper], where lower is one unit below the band's first
 * unit (a first band starting at 0 or 1 both begin at 0) and upper is null for the open top band.
 * Inclusive whole-unit bands become contiguous ranges, so fractional usage falls in exactly one.
 */
export type Band = Readonly<{ lower: Quantity; upper: Quantity | null; price: Money }>;

export const toBands = (tiers: readonly Tier[]): Band[] =>
  tiers.map((tier) => ({
    lower: BigInt(Math.max(tier.fromUnits, 1) - 1) * SCALE,
    upper: tier.toUnits === null ? null : BigInt(tier.toUnits) * SCALE,
    price: parseMoney(tier.price),
  }));

/** The band holding a quantity; zero belongs to the first band. */
export const bandHolding = (bands: readonly Band[], quantity: Quantity): Band => {
  const found = bands.find((band) => quantity > band.lower && (band.upper === null || quantity <= band.upper));
  return found ?? bands[0]!;
};

/** Exact amounts scaled by 10^8 (price × quantity); rounded once, by the caller, at the end of the line. */
export type Exact = bigint;

/** Tiered: each band prices the part of the quantity inside it at its own rate; the parts add up. */
export const tieredExact = (bands: readonly Band[], quantity: Quantity): Exact =>
  bands.reduce((total, band) => {
    const inside = max(0n, (band.upper === null ? quantity : min(quantity, band.upper)) - band.lower);
    return total + inside * band.price;
  }, 0n);

/** Volume: the band holding the total sets the rate for every unit. */
export const volumeExact = (bands: readonly Band[], quantity: Quantity): Exact => bandHolding(bands, quantity).price * quantity;

/** Stairstep: the band holding the total sets one price for the whole quantity; zero bills zero. */
export const stairstepExact = (bands: readonly Band[], quantity: Quantity): Exact =>
  quantity === 0n ? 0n : bandHolding(bands, quantity).price * SCALE;
