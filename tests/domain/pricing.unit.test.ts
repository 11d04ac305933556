import fc from 'fast-check';
import type { Tier } from '../../domain/catalogue/types';
import { divideRounded, formatMoney, parseMoney } from '../../domain/pricing/money';
import { discountOf, formatPercent, parsePercent } from '../../domain/pricing/percent';
import { billedQuantity, meterAmount, type MeterPricing, planAmount, type PlanPricing } from '../../domain/pricing/pricing';
import { prorate } from '../../domain/pricing/proration';
import { roundUp, units } from '../../domain/pricing/quantity';
import { subscriptionValues } from '../../domain/pricing/subscription-values';
import { bandHolding, toBands } from '../../domain/pricing/tiers';

const tiers: Tier[] = [
  { fromUnits: 1, toUnits: 10, price: '5.0000' },
  { fromUnits: 11, toUnits: 20, price: '4.0000' },
  { fromUnits: 21, toUnits: null, price: '3.5000' },
];
const plan = (type: PlanPricing['type'], extra: Partial<PlanPricing> = {}): PlanPricing => ({ type, price: '0.0000', freeUnits: 0, tiers: [], ...extra });
const price = (p: PlanPricing, n: number) => formatMoney(planAmount(p, n));

describe('money', () => {
  it('parses and formats 4-place decimal strings exactly', () => {
    expect(formatMoney(parseMoney('12.5'))).toBe('12.5000');
    expect(formatMoney(parseMoney('-0.0001'))).toBe('-0.0001');
    expect(formatMoney(parseMoney('0'))).toBe('0.0000');
    expect(() => parseMoney('1.23456')).toThrow();
    expect(() => parseMoney('1e3')).toThrow();
  });

  it('rounds half away from zero', () => {
    expect(divideRounded(5n, 10n)).toBe(1n); // 0.5 → 1
    expect(divideRounded(-5n, 10n)).toBe(-1n); // -0.5 → -1
    expect(divideRounded(4n, 10n)).toBe(0n);
    expect(divideRounded(15n, 10n)).toBe(2n); // 1.5 → 2
    expect(divideRounded(25n, 10n)).toBe(3n); // 2.5 → 3, not banker's 2
  });

  it('round-trips every amount with exactly 4 places', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (value) => {
        const text = formatMoney(value);
        expect(text).toMatch(/^-?\d+\.\d{4}$/);
        expect(parseMoney(text)).toBe(value);
      }),
    );
  });
});

describe('discounts', () => {
  it('takes round(amount × percent / 100)', () => {
    // 33.3333 × 12.50% = 4.16666… → 4.1667
    expect(formatMoney(discountOf(parseMoney('33.3333'), parsePercent('12.5')!))).toBe('4.1667');
    // 0.0001 × 50% = 0.00005 → half away from zero → 0.0001
    expect(formatMoney(discountOf(parseMoney('0.0001'), parsePercent('50')!))).toBe('0.0001');
    expect(formatMoney(discountOf(parseMoney('-0.0001'), parsePercent('50')!))).toBe('-0.0001');
    expect(formatPercent(parsePercent('7.5')!)).toBe('7.50');
    expect(parsePercent('100.01')).toBeNull();
    expect(parsePercent('1.234')).toBeNull();
  });
});

describe('plan pricing (worked examples)', () => {
  it('flat fee ignores units', () => {
    expect(price(plan('flat_fee', { price: '49.99' }), 7)).toBe('49.9900');
  });

  it('per unit bills units less free units, never below zero', () => {
    // (12 − 2 free) × 10.25 = 102.5000
    expect(price(plan('per_unit', { price: '10.25', freeUnits: 2 }), 12)).toBe('102.5000');
    expect(price(plan('per_unit', { price: '10.25', freeUnits: 20 }), 12)).toBe('0.0000');
  });

  it('tiered adds up each band at its own rate', () => {
    // 25 units: 10 × 5 + 10 × 4 + 5 × 3.5 = 50 + 40 + 17.5 = 107.5000
    expect(price(plan('tiered', { tiers }), 25)).toBe('107.5000');
    // 10 units: all in the first band = 50.0000
    expect(price(plan('tiered', { tiers }), 10)).toBe('50.0000');
    // 25 units, 5 free → 20 priced: 10 × 5 + 10 × 4 = 90.0000
    expect(price(plan('tiered', { tiers, freeUnits: 5 }), 25)).toBe('90.0000');
  });

  it('volume prices every unit at the rate of the band holding the total', () => {
    // 25 units are in 21+: 25 × 3.5 = 87.5000
    expect(price(plan('volume', { tiers }), 25)).toBe('87.5000');
    // 20 units are in 11–20: 20 × 4 = 80.0000 (band ends are inclusive)
    expect(price(plan('volume', { tiers }), 20)).toBe('80.0000');
    // 11 units: 11 × 4 = 44.0000
    expect(price(plan('volume', { tiers }), 11)).toBe('44.0000');
  });

  it('stairstep sets one price for the whole quantity, and zero bills zero', () => {
    const steps: Tier[] = [
      { fromUnits: 1, toUnits: 5, price: '100' },
      { fromUnits: 6, toUnits: null, price: '180' },
    ];
    expect(price(plan('stairstep', { tiers: steps }), 3)).toBe('100.0000');
    expect(price(plan('stairstep', { tiers: steps }), 6)).toBe('180.0000');
    expect(price(plan('stairstep', { tiers: steps }), 0)).toBe('0.0000');
  });

  it('no base fee bills nothing up front', () => {
    expect(price(plan('no_base_fee', { price: '0' }), 0)).toBe('0.0000');
  });
});

describe('meters (worked examples)', () => {
  const perUnit: MeterPricing = { model: 'per_unit', price: '0.0015', includedUnits: 1000, minimumUnits: 100, tiers: [] };

  it('per unit bills past the included units, at least the minimum', () => {
    // 5,000 reported − 1,000 included = 4,000 × 0.0015 = 6.0000
    expect(formatMoney(meterAmount(perUnit, billedQuantity(perUnit, units(5000))))).toBe('6.0000');
    // 50 reported < 100 minimum → 100 billed, all included → 0.0000
    expect(billedQuantity(perUnit, units(50))).toBe(units(100));
    expect(formatMoney(meterAmount(perUnit, billedQuantity(perUnit, units(50))))).toBe('0.0000');
  });

  it('prices fractional usage once, rounding at the end of the line', () => {
    const storage: MeterPricing = { model: 'tiered', price: null, includedUnits: null, minimumUnits: 0, tiers };
    // 12.5 GB tiered: 10 × 5 + 2.5 × 4 = 60.0000; usage_quantity 12.5 → units 13
    const quantity = parseMoney('12.5');
    expect(formatMoney(meterAmount(storage, quantity))).toBe('60.0000');
    expect(roundUp(quantity)).toBe(13n);
    // 0.3333 × 0.0015 = 0.00049995 → 0.0005
    const tiny: MeterPricing = { ...perUnit, includedUnits: 0, minimumUnits: 0 };
    expect(formatMoney(meterAmount(tiny, parseMoney('0.3333')))).toBe('0.0005');
  });

  it('volume and stairstep meters price like the plan types', () => {
    const volume: MeterPricing = { model: 'volume', price: null, includedUnits: null, minimumUnits: 15, tiers };
    // 3 reported < 15 minimum → 15 × 4 = 60.0000
    expect(formatMoney(meterAmount(volume, billedQuantity(volume, units(3))))).toBe('60.0000');
    const stairs: MeterPricing = { ...volume, model: 'stairstep', minimumUnits: 0 };
    expect(formatMoney(meterAmount(stairs, units(30)))).toBe('3.5000');
  });
});

describe('proration', () => {
  it('charges amount × days left / days in period, rounded once', () => {
    // 100.0000 × 10 / 31 = 32.258064… → 32.2581
    expect(formatMoney(prorate(parseMoney('100'), 10, 31))).toBe('32.2581');
    // a credit: −50.0000 × 15 / 30 = −25.0000
    expect(formatMoney(prorate(parseMoney('-50'), 15, 30))).toBe('-25.0000');
  });

  it('can credit when units rise on a volume plan that crosses into a cheaper band', () => {
    const volume = plan('volume', { tiers });
    // 20 units: 80.0000; 21 units: 73.5000 → the period costs 6.5000 less although units rose
    const difference = planAmount(volume, 21) - planAmount(volume, 20);
    expect(formatMoney(difference)).toBe('-6.5000');
    expect(formatMoney(prorate(difference, 15, 30))).toBe('-3.2500');
  });
});

describe('subscription values', () => {
  it('adds the plan at current units and the meters’ minimums, net of discount', () => {
    const values = subscriptionValues({
      plan: plan('per_unit', { price: '10' }),
      units: 5,
      discount: parsePercent('10')!,
      interval: { unit: 'month', count: 1 },
      meters: [{ model: 'per_unit', price: '2', includedUnits: 10, minimumUnits: 25, tiers: [] }],
      closedPeriodsAboveMinimum: [parseMoney('10'), parseMoney('20'), parseMoney('30'), parseMoney('60')],
    });
    // plan 50 − 10% = 45; meter minimum (25 − 10) × 2 = 30 − 10% = 27; renewal 72
    // usage: last three (20, 30, 60) net of 10% = 18, 27, 54 → average 33; annual 33 × 12 = 396
    expect(values).toEqual({
      renewal_value: '72.0000',
      minimum_usage_value: '27.0000',
      usage_value: '33.0000',
      usage_value_annual: '396.0000',
    });
  });

  it('is zero for usage until a period has closed', () => {
    const values = subscriptionValues({ plan: plan('flat_fee', { price: '9' }), units: 0, discount: 0n, interval: { unit: 'year', count: 1 }, meters: [] });
    expect(values).toMatchObject({ renewal_value: '9.0000', usage_value: '0.0000', usage_value_annual: '0.0000', minimum_usage_value: '0.0000' });
  });
});

describe('tier properties', () => {
  const tierList = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 100_000 })), { minLength: 1, maxLength: 6 })
    .map((widths) => {
      let from = 1;
      return widths.map(([width, cents], i): Tier => {
        const tier = { fromUnits: from, toUnits: i === widths.length - 1 ? null : from + width - 1, price: formatMoney(BigInt(cents)) };
        from += width;
        return tier;
      });
    });

  it('tiered pricing equals the sum of its bands priced separately', () => {
    fc.assert(
      fc.property(tierList, fc.integer({ min: 0, max: 400 }), (list, n) => {
        const bandSum = list.reduce((total, tier) => {
          const upper = tier.toUnits ?? Number.MAX_SAFE_INTEGER;
          const inside = Math.max(0, Math.min(n, upper) - tier.fromUnits + 1);
          return total + BigInt(inside) * parseMoney(tier.price);
        }, 0n);
        expect(planAmount(plan('tiered', { tiers: list }), n)).toBe(bandSum);
      }),
    );
  });

  it('volume and stairstep pick exactly one band', () => {
    fc.assert(
      fc.property(tierList, fc.integer({ min: 1, max: 400 }), (list, n) => {
        const holding = list.filter((t) => n >= t.fromUnits && (t.toUnits === null || n <= t.toUnits));
        expect(holding).toHaveLength(1);
        const band = bandHolding(toBands(list), units(n));
        expect(formatMoney(band.price)).toBe(holding[0]!.price);
        expect(planAmount(plan('volume', { tiers: list }), n)).toBe(parseMoney(holding[0]!.price) * BigInt(n));
        expect(planAmount(plan('stairstep', { tiers: list }), n)).toBe(parseMoney(holding[0]!.price));
      }),
    );
  });

  it('never produces an amount with more than 4 places', () => {
    fc.assert(
      fc.property(tierList, fc.integer({ min: 0, max: 10_000_000 }), (list, tenThousandths) => {
        const meter: MeterPricing = { model: 'tiered', price: null, includedUnits: null, minimumUnits: 0, tiers: list };
        expect(formatMoney(meterAmount(meter, BigInt(tenThousandths)))).toMatch(/^\d+\.\d{4}$/);
      }),
    );
  });
});
