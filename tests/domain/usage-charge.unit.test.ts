import fc from 'fast-check';
import type { Tier } from '../../domain/catalogue/types';
import { formatMoney, SCALE } from '../../domain/pricing/money';
import { discountOf, netOf } from '../../domain/pricing/percent';
import type { MeterPricing } from '../../domain/pricing/pricing';
import { formatQuantity, type Quantity } from '../../domain/pricing/quantity';
import { amountAboveMinimum, usageCharge } from '../../domain/pricing/usage-charge';

const perUnit = (price: string, includedUnits: number, minimumUnits = 0): MeterPricing => ({ model: 'per_unit', price, includedUnits, minimumUnits, tiers: [] });
const banded = (model: 'tiered' | 'volume' | 'stairstep', tiers: Tier[], minimumUnits = 0): MeterPricing => ({ model, price: null, includedUnits: null, minimumUnits, tiers });

/** Reported usage: up to a million units with 4 decimal places, as ten-thousandths. */
const reported = fc.bigInt({ min: 0n, max: 1_000_000n * SCALE });
const price = fc.bigInt({ min: 0n, max: 1000n * SCALE }).map(formatMoney);
const whole = fc.integer({ min: 0, max: 5000 });
const percent = fc.bigInt({ min: 0n, max: 10_000n });
const ascendingTiers = fc
  .tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1000 }), price, price, price)
  .map(([a, b, p1, p2, p3]): Tier[] => [
    { fromUnits: 1, toUnits: a, price: p1 },
    { fromUnits: a + 1, toUnits: a + b, price: p2 },
    { fromUnits: a + b + 1, toUnits: null, price: p3 },
  ]);

describe('usage charges (worked examples)', () => {
  it('prices q = max(reported, minimum); per_unit past its included units; usage_quantity rounded up to units', () => {
    // 1234.5678 calls, 1000 included: 234.5678 × 0.0125 = 2.9320975 → 2.9321; units 235.
    expect(usageCharge(perUnit('0.0125', 1000), 12_345_678n)).toEqual({ billed: 12_345_678n, priced: 2_345_678n, units: 235n, amount: 29_321n });
    // 3 reported under a minimum of 50 with 20 included: q = 50, 30 priced × 0.5 = 15.0000.
    expect(usageCharge(perUnit('0.5000', 20, 50), 30_000n)).toEqual({ billed: 500_000n, priced: 300_000n, units: 30n, amount: 150_000n });
    // Nothing reported, no minimum: nothing billed.
    expect(usageCharge(perUnit('0.5000', 0), 0n)).toEqual({ billed: 0n, priced: 0n, units: 0n, amount: 0n });
  });

  it('prices the other models on q like the plan types: tiered bands add up, volume one rate, stairstep one price', () => {
    const tiers: Tier[] = [
      { fromUnits: 1, toUnits: 10, price: '1.0000' },
      { fromUnits: 11, toUnits: null, price: '0.3333' },
    ];
    // tiered 12.5: 10 × 1 + 2.5 × 0.3333 = 10.83325 → 10.8333.
    expect(formatMoney(usageCharge(banded('tiered', tiers), 125_000n).amount)).toBe('10.8333');
    // volume 12.5: all at 0.3333 = 4.16625 → 4.1663 (half away from zero).
    expect(formatMoney(usageCharge(banded('volume', tiers), 125_000n).amount)).toBe('4.1663');
    // stairstep 12.5: the second step's one price.
    expect(formatMoney(usageCharge(banded('stairstep', tiers), 125_000n).amount)).toBe('0.3333');
    // stairstep with a minimum of 3 and nothing reported: q = 3, the first step.
    expect(formatMoney(usageCharge(banded('stairstep', tiers, 3), 0n).amount)).toBe('1.0000');
  });

  it('values usage above the minimum: the amount at q less the amount of the minimum alone', () => {
    // Minimum 5 GB at 0.5: 12 GB → 6.0000 − 2.5000 = 3.5000; 2 GB (below the minimum) → 0.
    expect(formatMoney(amountAboveMinimum(perUnit('0.5000', 0, 5), 120_000n))).toBe('3.5000');
    expect(formatMoney(amountAboveMinimum(perUnit('0.5000', 0, 5), 20_000n))).toBe('0.0000');
  });
});

describe('usage charge properties', () => {
  it('per_unit is exact: round(price × max(max(reported, minimum) − included, 0)) in ten-thousandths, and units are its ceiling', () => {
    fc.assert(
      fc.property(reported, price, whole, whole, (r, p, included, minimum) => {
        const charge = usageCharge(perUnit(p, included, minimum), r);
        const q = r > BigInt(minimum) * SCALE ? r : BigInt(minimum) * SCALE;
        const priced = q > BigInt(included) * SCALE ? q - BigInt(included) * SCALE : 0n;
        // The exact product in 10⁻⁸, rounded half up once (it is never negative).
        const exact = BigInt(p.replace('.', '')) * priced;
        expect(charge.priced).toBe(priced);
        expect(charge.amount).toBe((exact + SCALE / 2n) / SCALE);
        // The ceiling: the fewest whole units covering the quantity priced.
        expect(charge.units * SCALE >= priced && (charge.units === 0n || (charge.units - 1n) * SCALE < priced)).toBe(true);
      }),
    );
  });

  it('per_unit with included units prices like a tiered meter whose first band is free', () => {
    fc.assert(
      fc.property(reported, price, fc.integer({ min: 1, max: 5000 }), (r, p, included) => {
        const tiered = banded('tiered', [
          { fromUnits: 1, toUnits: included, price: '0.0000' },
          { fromUnits: included + 1, toUnits: null, price: p },
        ]);
        expect(usageCharge(perUnit(p, included), r).amount).toBe(usageCharge(tiered, r).amount);
      }),
    );
  });

  it('never bills less for more usage (per_unit, tiered), and never less than the minimum alone', () => {
    fc.assert(
      fc.property(reported, reported, ascendingTiers, whole, (a, b, tiers, minimum) => {
        const [low, high]: [Quantity, Quantity] = a <= b ? [a, b] : [b, a];
        for (const meter of [perUnit(tiers[1]!.price, 0, minimum), banded('tiered', tiers, minimum)]) {
          expect(usageCharge(meter, low).amount <= usageCharge(meter, high).amount).toBe(true);
          expect(amountAboveMinimum(meter, low) >= 0n).toBe(true);
          if (low <= BigInt(minimum) * SCALE) expect(amountAboveMinimum(meter, low)).toBe(0n);
        }
      }),
    );
  });

  it('a line’s charge and discount add back to its amount, the discount within the amount', () => {
    fc.assert(
      fc.property(reported, ascendingTiers, percent, fc.constantFrom<'tiered' | 'volume' | 'stairstep'>('tiered', 'volume', 'stairstep'), (r, tiers, pct, model) => {
        const { amount } = usageCharge(banded(model, tiers), r);
        const discount = discountOf(amount, pct);
        expect(netOf(amount, discount) + discount).toBe(amount);
        expect(discount >= 0n && discount <= amount).toBe(true);
        expect(formatQuantity(r)).toMatch(/^\d+\.\d{4}$/);
      }),
    );
  });
});
