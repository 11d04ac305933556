import { z } from 'zod';
import type { createCharge } from '../../commands/catalogue/create-charge';
import type { PlanInput } from '../../commands/catalogue/create-plan';
import type { defineMeter } from '../../commands/catalogue/define-meter';
import { CATALOGUE_STATUSES, INTERVAL_UNITS, METER_MODELS, PLAN_TYPES } from '../../domain/catalogue/types';
import { chargeDocument } from '../../projections/read-models/charges';
import { meterDocument } from '../../projections/read-models/meters';
import { planDocument } from '../../projections/read-models/plans';
import { amountInput } from './money';
import { currencySchema } from './organisation';

const code = z.string().min(1).max(50).regex(/^[\x21-\x7E]+$/, 'printable characters without spaces');
const labels = z.strictObject({ singular: z.string().max(100).nullable().default(null), plural: z.string().max(100).nullable().default(null) });
const count = z.number().int().min(0).max(999_999_999);

const tierInput = z.strictObject({
  from_units: count,
  to_units: count.nullable(),
  price: amountInput,
});

export const createMeterBody = z.strictObject({
  code,
  name: z.string().min(1).max(255),
  unit_labels: labels.default({ singular: null, plural: null }),
});

export const toMeterInput = (body: z.infer<typeof createMeterBody>): Parameters<typeof defineMeter>[3] => ({
  code: body.code,
  name: body.name,
  unitLabels: body.unit_labels,
});

export const createPlanBody = z.strictObject({
  code,
  name: z.string().min(1).max(255),
  type: z.enum(PLAN_TYPES),
  interval: z.strictObject({ unit: z.enum(INTERVAL_UNITS), count: z.number().int().min(1).max(100).default(1) }),
  currency: currencySchema,
  price: amountInput.default('0.0000'),
  minimum_units: count.default(0),
  free_units: count.default(0),
  unit_labels: labels.default({ singular: null, plural: null }),
  allows_price_override: z.boolean().default(false),
  status: z.enum(CATALOGUE_STATUSES).default('draft'),
  tiers: z.array(tierInput).max(100).default([]),
  meters: z
    .array(
      z.strictObject({
        meter_code: code,
        pricing_model: z.enum(METER_MODELS),
        price: amountInput.nullable().default(null),
        included_units: count.nullable().default(null),
        minimum_units: count.default(0),
        tiers: z.array(tierInput).max(100).default([]),
      }),
    )
    .max(20)
    .default([]),
});

const toTiers = (list: readonly z.infer<typeof tierInput>[]) => list.map((t) => ({ fromUnits: t.from_units, toUnits: t.to_units, price: t.price }));

export const toPlanInput = (body: z.infer<typeof createPlanBody>): PlanInput => ({
  code: body.code,
  name: body.name,
  type: body.type,
  interval: body.interval,
  currency: body.currency,
  price: body.price,
  minimumUnits: body.minimum_units,
  freeUnits: body.free_units,
  unitLabels: body.unit_labels,
  allowsPriceOverride: body.allows_price_override,
  status: body.status,
  tiers: toTiers(body.tiers),
  meters: body.meters.map((meter) => ({
    meterCode: meter.meter_code,
    pricingModel: meter.pricing_model,
    price: meter.price,
    includedUnits: meter.included_units,
    minimumUnits: meter.minimum_units,
    tiers: toTiers(meter.tiers),
  })),
});

/** Its fields are named as the plan's definition names them: the body is the command's changes as it is. */
export const updatePlanBody = z.strictObject({
  status: z.enum(CATALOGUE_STATUSES).optional(),
  name: z.string().min(1).max(255).optional(),
});

export const createChargeBody = z.strictObject({
  code,
  name: z.string().min(1).max(255),
  description: z.string().max(1000).nullable().default(null),
  currency: currencySchema,
  price: amountInput,
  allows_price_override: z.boolean().default(false),
  status: z.enum(CATALOGUE_STATUSES).default('active'),
});

export const toChargeInput = (body: z.infer<typeof createChargeBody>): Parameters<typeof createCharge>[3] => ({
  code: body.code,
  name: body.name,
  description: body.description,
  currency: body.currency,
  price: body.price,
  allowsPriceOverride: body.allows_price_override,
  status: body.status,
});

export const meterObject = meterDocument.omit({ _organisation: true }).meta({ id: 'Meter' });
export const planObject = planDocument.omit({ _organisation: true }).meta({ id: 'Plan' });
export const chargeObject = chargeDocument.omit({ _organisation: true }).meta({ id: 'Charge' });
