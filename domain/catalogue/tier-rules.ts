import type { Tier } from './types';

export type Problem = Readonly<{ path: string; message: string }>;

/**
 * Bands are ordered by `from_units`, inclusive and contiguous (each starts one unit after the last
 * ended), the first starts at 0 or 1, and only the top band is open (`to_units` null).
 */
export const tierProblems = (tiers: readonly Tier[], path: string): Problem[] => {
  if (tiers.length === 0) return [{ path, message: 'needs at least one band' }];
  const problems: Problem[] = [];
  tiers.forEach((tier, i) => {
    const at = `${path}.${i}`;
    const previous = tiers[i - 1];
    if (!previous && tier.fromUnits !== 0 && tier.fromUnits !== 1) {
      problems.push({ path: `${at}.from_units`, message: 'the first band starts at 0 or 1' });
    }
    if (previous && previous.toUnits !== null && tier.fromUnits !== previous.toUnits + 1) {
      problems.push({ path: `${at}.from_units`, message: `must be ${previous.toUnits + 1}, one after the band before ends` });
    }
    const last = i === tiers.length - 1;
    if (!last && tier.toUnits === null) problems.push({ path: `${at}.to_units`, message: 'only the top band is open' });
    if (last && tier.toUnits !== null) problems.push({ path: `${at}.to_units`, message: 'the top band is open (null)' });
    if (tier.toUnits !== null && tier.toUnits < tier.fromUnits) {
      problems.push({ path: `${at}.to_units`, message: 'must not be below from_units' });
    }
  });
  return problems;
};
