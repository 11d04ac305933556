import { z } from 'zod';
import { CATALOGUE_STATUSES, INTERVAL_UNITS, METER_MODELS, PLAN_TYPES } from '../../domain/catalogue/types';
import { amountInput, amountOutput } from './money';
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

const unitLabelsObject = z.object({ singular: z.string().nullable(), plural: z.string().nullable() });
const tierObject = z.object({ from_units: z.number().int(), to_units: z.number().int().nullable(), price: amountOutput }).meta({ id: 'Tier' });

export const meterObject = z
  .object({ id: z.string(), object: z.literal('meter'), code: z.string(), name: z.string(), unit_labels: unitLabelsObject, created: z.string() })
  .meta({ id: 'Meter' });

export const planObject = z
  .object({
    id: z.string(),
    object: z.literal('plan'),
    code: z.string(),
    name: z.string(),
    type: z.enum(PLAN_TYPES),
    interval: z.object({ unit: z.enum(INTERVAL_UNITS), count: z.number().int() }),
    currency: z.string(),
    price: amountOutput,
    minimum_units: z.number().int(),
    free_units: z.number().int(),
    unit_labels: unitLabelsObject,
    allows_price_override: z.boolean(),
    status: z.enum(CATALOGUE_STATUSES),
    tiers: z.array(tierObject),
    meters: z.array(
      z
        .object({
          meter: z.string(),
          meter_code: z.string(),
          name: z.string(),
          unit_labels: unitLabelsObject,
          pricing_model: z.enum(METER_MODELS),
          price: amountOutput.nullable(),
          included_units: z.number().int().nullable(),
          minimum_units: z.number().int(),
          tiers: z.array(tierObject),
        })
        .meta({ id: 'PlanMeter' }),
    ),
    created: z.string(),
  })
  .meta({ id: 'Plan' });

export const chargeObject = z
  .object({
    id: z.string(),
    object: z.literal('charge'),
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    currency: z.string(),
    price: amountOutput,
    allows_price_override: z.boolean(),
    status: z.enum(CATALOGUE_STATUSES),
    created: z.string(),
  })
  .meta({ id: 'Charge' });
