import { type Problem, tierProblems } from './tier-rules';
import { type PlanDefinition, planHasUnits, usesTiers } from './types';

const ZERO = '0.0000';

/** Every rule a plan must meet, as problems naming the API field (`tiers.1.from_units`). */
export const planProblems = (plan: PlanDefinition): Problem[] => {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (plan.interval.count < 1 || plan.interval.count > 100) add('interval.count', 'must be 1 to 100');
  if (usesTiers(plan.type)) {
    problems.push(...tierProblems(plan.tiers, 'tiers'));
    if (plan.price !== ZERO) add('price', `a ${plan.type} plan is priced by its tiers; leave price out`);
  } else if (plan.tiers.length > 0) {
    add('tiers', `a ${plan.type} plan has no tiers`);
  }
  if (plan.type === 'no_base_fee') {
    if (plan.price !== ZERO) add('price', 'a no_base_fee plan has price 0.0000');
    if (plan.meters.length === 0) add('meters', 'a no_base_fee plan bills only meters: define at least one');
  }
  if (!planHasUnits(plan.type)) {
    if (plan.minimumUnits !== 0) add('minimum_units', `a ${plan.type} plan takes no units`);
    if (plan.freeUnits !== 0) add('free_units', `a ${plan.type} plan takes no units`);
  }
  if (plan.allowsPriceOverride && plan.type !== 'flat_fee') add('allows_price_override', 'only a flat_fee plan allows a price override');
  const codes = new Set<string>();
  plan.meters.forEach((meter, i) => {
    const at = `meters.${i}`;
    if (codes.has(meter.meterCode)) add(`${at}.meter_code`, 'appears twice');
    codes.add(meter.meterCode);
    if (meter.pricingModel === 'per_unit') {
      if (meter.price === null) add(`${at}.price`, 'a per_unit meter needs a price');
      if (meter.includedUnits === null) add(`${at}.included_units`, 'a per_unit meter needs included_units (0 for none)');
      if (meter.tiers.length > 0) add(`${at}.tiers`, 'a per_unit meter has no tiers');
    } else {
      if (meter.price !== null) add(`${at}.price`, `a ${meter.pricingModel} meter is priced by its tiers`);
      if (meter.includedUnits !== null) add(`${at}.included_units`, 'only a per_unit meter has included units');
      problems.push(...tierProblems(meter.tiers, `${at}.tiers`));
    }
  });
  return problems;
};
