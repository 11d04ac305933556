import { z } from 'zod';
import {
  CATALOGUE_STATUSES,
  intervalSchema,
  METER_MODELS,
  PLAN_TYPES,
  type PlanDefinition,
  type Tier,
  unitLabelsSchema,
} from '../../domain/catalogue/types';
import type { PlanEvent } from '../../domain/plan/events';
import { amountOutput } from './amount';
import type { Projection } from '../engine/projection';

export const PLANS = 'plans';

const tierDocument = z
  .object({ from_units: z.number().int(), to_units: z.number().int().nullable(), price: amountOutput })
  .meta({ id: 'Tier' });

/** The Plan object of the API document; `_`-prefixed fields are internal. */
export const planDocument = z.object({
  id: z.string(),
  object: z.literal('plan'),
  code: z.string(),
  name: z.string(),
  type: z.enum(PLAN_TYPES),
  interval: intervalSchema,
  currency: z.string(),
  price: amountOutput,
  minimum_units: z.number().int(),
  free_units: z.number().int(),
  unit_labels: unitLabelsSchema,
  allows_price_override: z.boolean(),
  status: z.enum(CATALOGUE_STATUSES),
  tiers: z.array(tierDocument),
  meters: z.array(
    z
      .object({
        meter: z.string(),
        meter_code: z.string(),
        name: z.string(),
        unit_labels: unitLabelsSchema,
        pricing_model: z.enum(METER_MODELS),
        price: amountOutput.nullable(),
        included_units: z.number().int().nullable(),
        minimum_units: z.number().int(),
        tiers: z.array(tierDocument),
      })
      .meta({ id: 'PlanMeter' }),
  ),
  created: z.string(),
  _organisation: z.string(),
});
export type PlanDoc = z.infer<typeof planDocument>;

const tiers = (list: readonly Tier[]) => list.map((t) => ({ from_units: t.fromUnits, to_units: t.toUnits, price: t.price }));

/** A plan's document, built from its definition. */
const toPlanDocument = (plan: PlanDefinition, created: string): PlanDoc => ({
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
  _organisation: plan.organisationId,
});

export const plansProjection: Projection<PlanEvent> = {
  name: 'plans',
  version: 1,
  collections: [PLANS],
  indexes: [
    { collection: PLANS, fields: ['_organisation', 'created'] },
    { collection: PLANS, fields: ['_organisation', 'code'] },
  ],
  handles: ['PlanCreated', 'PlanUpdated'],
  apply: async (event, context) => {
    switch (event.type) {
      case 'PlanCreated':
        context.put(PLANS, toPlanDocument(event.data, event.metadata.businessTime));
        return;
      case 'PlanUpdated': {
        const doc = await context.get<PlanDoc>(PLANS, event.data.planId);
        if (doc) context.put(PLANS, { ...doc, ...event.data.changes });
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
};
