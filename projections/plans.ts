import type { PlanDefinition, Tier } from '../domain/catalogue/types';
import type { PlanEvent } from '../domain/plan/events';
import type { Projection } from './projection';

export const PLANS = 'plans';

const tiers = (list: readonly Tier[]) => list.map((t) => ({ from_units: t.fromUnits, to_units: t.toUnits, price: t.price }));

/** The Plan object of the API document, built from the plan's definition. */
export const planObject = (plan: PlanDefinition, created: string) => ({
  id: plan.planId,
  object: 'plan' as const,
  code: plan.code,
  name: plan.name,
  type: plan.type,
  interval: plan.interval,
  currency: plan.currency,
  price: plan.price,
  minimum_units: plan.minimumUnits,
  free_units: plan.freeUnits,
  unit_labels: plan.unitLabels,
  allows_price_override: plan.allowsPriceOverride,
  status: plan.status,
  tiers: tiers(plan.tiers),
  meters: plan.meters.map((meter) => ({
    meter: meter.meterId,
    meter_code: meter.meterCode,
    name: meter.name,
    unit_labels: meter.unitLabels,
    pricing_model: meter.pricingModel,
    price: meter.price,
    included_units: meter.includedUnits,
    minimum_units: meter.minimumUnits,
    tiers: tiers(meter.tiers),
  })),
  created,
});

export type PlanDoc = ReturnType<typeof planObject> & { _organisation: string };

export const plansProjection: Projection = {
  name: 'plans',
  version: 1,
  collections: [PLANS],
  indexes: [
    { collection: PLANS, fields: ['_organisation', 'created'] },
    { collection: PLANS, fields: ['_organisation', 'code'] },
  ],
  handles: ['PlanCreated', 'PlanUpdated'],
  apply: async (event, context) => {
    const typed = event as unknown as PlanEvent;
    switch (typed.type) {
      case 'PlanCreated':
        context.put(PLANS, { ...planObject(typed.data, event.metadata.businessTime), _organisation: typed.data.organisationId });
        return;
      case 'PlanUpdated': {
        const doc = await context.get<PlanDoc>(PLANS, typed.data.planId);
        if (doc) context.put(PLANS, { ...doc, ...typed.data.changes });
        return;
      }
      default: {
        const exhaustive: never = typed;
        return exhaustive;
      }
    }
  },
};
