import { z } from 'zod';

export const PLAN_TYPES = ['flat_fee', 'per_unit', 'tiered', 'volume', 'stairstep', 'no_base_fee'] as const;
export const METER_MODELS = ['per_unit', 'tiered', 'volume', 'stairstep'] as const;
export const CATALOGUE_STATUSES = ['draft', 'active', 'inactive', 'legacy'] as const;
export const INTERVAL_UNITS = ['day', 'week', 'month', 'year'] as const;

export type PlanType = (typeof PLAN_TYPES)[number];
export type MeterModel = (typeof METER_MODELS)[number];
export type CatalogueStatus = (typeof CATALOGUE_STATUSES)[number];

/** Amounts in the catalogue's events are 4-place decimal strings, e.g. '12.5000'. */
export const amount = z.string().regex(/^\d+\.\d{4}$/);

export const tierSchema = z.object({ fromUnits: z.number().int(), toUnits: z.number().int().nullable(), price: amount });
export type Tier = z.infer<typeof tierSchema>;

export const unitLabelsSchema = z.object({ singular: z.string().nullable(), plural: z.string().nullable() });
export type UnitLabels = z.infer<typeof unitLabelsSchema>;

export const intervalSchema = z.object({ unit: z.enum(INTERVAL_UNITS), count: z.number().int() });
export type Interval = z.infer<typeof intervalSchema>;

export const planMeterSchema = z.object({
  meterId: z.string(),
  meterCode: z.string(),
  name: z.string(),
  unitLabels: unitLabelsSchema,
  pricingModel: z.enum(METER_MODELS),
  price: amount.nullable(),
  includedUnits: z.number().int().nullable(),
  minimumUnits: z.number().int(),
  tiers: z.array(tierSchema),
});
export type PlanMeter = z.infer<typeof planMeterSchema>;

export const planSchema = z.object({
  planId: z.string(),
  organisationId: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(PLAN_TYPES),
  interval: intervalSchema,
  currency: z.string(),
  price: amount,
  minimumUnits: z.number().int(),
  freeUnits: z.number().int(),
  unitLabels: unitLabelsSchema,
  allowsPriceOverride: z.boolean(),
  status: z.enum(CATALOGUE_STATUSES),
  tiers: z.array(tierSchema),
  meters: z.array(planMeterSchema),
});
export type PlanDefinition = z.infer<typeof planSchema>;

/** Plan types billed per unit: they take `units` on a subscription. */
export const planHasUnits = (type: PlanType): boolean => type !== 'flat_fee' && type !== 'no_base_fee';
export const usesTiers = (model: PlanType | MeterModel): boolean =>
  model === 'tiered' || model === 'volume' || model === 'stairstep';
