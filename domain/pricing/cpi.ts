import type { Tier } from '../catalogue/types';
import { divideRounded, formatMoney, parseMoney } from './money';

/** A CPI percentage in hundredths of a percent: '3.50' → 350n, '-0.25' → -25n. From -99.99 to 100.00. */
export type CpiPercent = bigint;

const CPI = /^(-)?(\d{1,3})(?:\.(\d{1,2}))?$/;

export const parseCpiPercent = (text: string): CpiPercent | null => {
  const match = CPI.exec(text);
  if (!match) return null;
  const magnitude = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  const value = match[1] ? -magnitude : magnitude;
  return value > -10_000n && value <= 10_000n ? value : null;
};

/** A price risen by the percentage: price × (100 + percent) / 100, rounded once to 4 places, half away from zero. */
export const upliftPrice = (price: string, percent: CpiPercent): string =>
  formatMoney(divideRounded(parseMoney(price) * (10_000n + percent), 10_000n));

export const upliftTiers = (tiers: readonly Tier[], percent: CpiPercent): Tier[] =>
  tiers.map((tier) => ({ ...tier, price: upliftPrice(tier.price, percent) }));
