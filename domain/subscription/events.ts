import { z } from 'zod';
import { intervalSchema, METER_MODELS, PLAN_TYPES, tierSchema } from '../catalogue/types';
import { defineEvents, type EventOf } from '../shared/define-events';
import { lifecycleEvents } from './lifecycle-events';

/** The prices a subscription bills by, fixed when it was created (CPI and plan changes move them later). */
export const pricingSnapshot = z.object({
  planType: z.enum(PLAN_TYPES),
  price: z.string(),
  freeUnits: z.number().int(),
  tiers: z.array(tierSchema),
});

export const subscriptionMeter = z.object({
  meterId: z.string(),
  meterCode: z.string(),
  name: z.string(),
  model: z.enum(METER_MODELS),
  price: z.string().nullable(),
  includedUnits: z.number().int().nullable(),
  tiers: z.array(tierSchema),
  /** The minimum in force: the subscription's own when it raised one, never below the plan's. */
  minimumUnits: z.number().int(),
  planMinimumUnits: z.number().int(),
});

const created = z.object({
  subscriptionId: z.string(),
  organisationId: z.string(),
  /** The sandbox generation it was made in, once the sandbox has been reset (absent before). */
  resetGeneration: z.number().int().min(1).optional(),
  customerId: z.string(),
  customerCode: z.string().nullable(),
  planId: z.string(),
  currency: z.string(),
  interval: intervalSchema,
  timezone: z.string(),
  status: z.enum(['pending', 'active']),
  startDate: z.string(),
  /** The billing period the subscription is in (or starts with): [currentPeriodStart, renewalDate). */
  currentPeriodStart: z.string(),
  renewalDate: z.string(),
  endDate: z.string().nullable(),
  units: z.number().int(),
  /** The minimum this subscription set for itself; 0 means the plan's applies. */
  minimumUnits: z.number().int(),
  discountPercent: z.string(),
  invoiceReference: z.string().nullable(),
  label: z.string().nullable(),
  endAfterCycles: z.number().int().nullable(),
  cpiEnabled: z.boolean(),
  pricing: pricingSnapshot,
  meters: z.array(subscriptionMeter),
  planName: z.string(),
  /** The first invoice, when one is raised (none in Setup Mode), and its one-off charges. */
  firstInvoiceId: z.string().nullable(),
  firstInvoiceCharges: z.array(
    z.object({
      chargeId: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      price: z.string(),
      quantity: z.number().int(),
      applyDiscount: z.boolean(),
    }),
  ),
});

export type SubscriptionCreatedData = z.infer<typeof created>;

export const subscriptionEvents = defineEvents({
  SubscriptionCreated: created,
  ...lifecycleEvents,
});
export type SubscriptionEvent<Type extends keyof typeof subscriptionEvents = keyof typeof subscriptionEvents> = EventOf<typeof subscriptionEvents, Type>;

export const subscriptionStream = (subscriptionId: string): string => `subscription-${subscriptionId}`;
