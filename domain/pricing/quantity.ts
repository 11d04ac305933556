import { SCALE } from './money';

/** A quantity in ten-thousandths of a unit (usage can be fractional: '12.5' → 125000n). */
export type Quantity = bigint;

export const units = (count: number | bigint): Quantity => BigInt(count) * SCALE;

/** A usage line's `units`: its quantity rounded up to a whole unit. */
export const roundUp = (quantity: Quantity): bigint => (quantity <= 0n ? 0n : (quantity + SCALE - 1n) / SCALE);
