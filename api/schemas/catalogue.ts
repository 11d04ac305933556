import { z } from 'zod';
import { CATALOGUE_STATUSES, INTERVAL_UNITS, METER_MODELS, PLAN_TYPES } from '../../domain/catalogue/types';
import { chargeDocument } from '../../projections/charges';
import { meterDocument } from '../../projections/meters';
import { planDocument } from '../../projections/plans';
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

export const meterObject = meterDocument.omit({ _organisation: true }).meta({ id: 'Meter' });
export const planObject = planDocument.omit({ _organisation: true }).meta({ id: 'Plan' });
export const chargeObject = chargeDocument.omit({ _organisation: true }).meta({ id: 'Charge' });
