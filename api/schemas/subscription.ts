import { z } from 'zod';
import { INTERVAL_UNITS } from '../../domain/catalogue/types';
import { isCalendarDate } from '../../domain/pricing/calendar';
import { customerFields } from './customer';
import { amountInput, amountOutput } from './money';

const count = z.number().int().min(0).max(999_999_999);

export const createSubscriptionBody = z.strictObject({
  customer_code: z.string().min(1).max(50),
  create_customer: z
    .strictObject({
      name: customerFields.name,
      email: customerFields.email,
      first_name: customerFields.first_name,
      last_name: customerFields.last_name,
    })
    .optional(),
  plan_code: z.string().min(1).max(50),
  units: count.optional(),
  discount_percent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, 'must be a decimal percent with at most 2 places, e.g. "12.50"')
    .refine((text) => Number.parseFloat(text) <= 100, 'must be 0.00 to 100.00')
    .transform((text) => {
      const [whole = '0', fraction = ''] = text.split('.');
      return `${Number.parseInt(whole, 10)}.${fraction.padEnd(2, '0')}`;
    })
    .default('0.00'),
  invoice_reference: z.string().max(255).nullable().optional(),
  start_date: z.string().refine(isCalendarDate, 'must be a date YYYY-MM-DD').optional(),
  flat_fee_price: amountInput.optional(),
  minimum_units: count.optional(),
  meters: z.array(z.strictObject({ meter_code: z.string().min(1), minimum_units: count })).max(20).default([]),
  charges: z
    .array(
      z.strictObject({
        charge: z.string().min(1),
        quantity: z.number().int().min(1).max(10_000).default(1),
        price: amountInput.optional(),
        apply_discount: z.boolean().default(false),
      }),
    )
    .max(50)
    .default([]),
  end_after_cycles: z.number().int().min(1).max(10_000).nullable().default(null),
  label: z.string().max(255).nullable().optional(),
  cpi_enabled: z.boolean().default(false),
});

const invoiceLineObject = z
  .object({
    id: z.string(),
    type: z.enum(['subscription', 'addon', 'charge', 'usage']).nullable(),
    revenue_type: z.enum(['new_subscription', 'expansion', 'renewal', 'usage']).nullable(),
    meter: z.string().nullable(),
    usage_quantity: z.string().nullable(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    units: z.number().int().nullable(),
    amount: amountOutput,
    discount_amount: amountOutput,
    charge_amount: amountOutput,
    effective_date: z.string().nullable(),
  })
  .meta({ id: 'InvoiceLine' });

export const INVOICE_STATUSES = ['draft', 'awaiting_approval', 'approved', 'paid', 'voided', 'deleted', 'not_in_external'] as const;

export const invoiceObject = z
  .object({
    id: z.string(),
    object: z.literal('invoice'),
    customer: z.string(),
    subscription: z.string().nullable(),
    number: z.string().nullable(),
    reference: z.string().nullable(),
    status: z.enum(INVOICE_STATUSES),
    currency: z.string(),
    invoice_date: z.string(),
    due_date: z.string().nullable(),
    subtotal: amountOutput,
    total: amountOutput,
    credit_note_amount: amountOutput,
    amount_paid: amountOutput.nullable(),
    sent: z.boolean(),
    accounting: z.object({
      sync_status: z.enum(['synced', 'pending', 'failed']),
      invoice_id: z.string().nullable(),
      sync_error: z.string().nullable(),
    }),
    lines: z.array(invoiceLineObject),
    created: z.string(),
  })
  .meta({ id: 'Invoice' });

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'complete', 'ended'] as const;

export const subscriptionObject = z
  .object({
    id: z.string(),
    object: z.literal('subscription'),
    customer: z.string(),
    customer_code: z.string().nullable(),
    plan: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    currency: z.string(),
    interval: z.object({ unit: z.enum(INTERVAL_UNITS), count: z.number().int() }),
    timezone: z.string(),
    start_date: z.string(),
    renewal_date: z.string().nullable(),
    end_date: z.string().nullable(),
    units: z.number().int(),
    minimum_units: z.number().int(),
    discount_percent: z.string(),
    cancel_at_period_end: z.boolean(),
    end_after_cycles: z.number().int().nullable(),
    label: z.string().nullable(),
    invoice_reference: z.string().nullable(),
    renewal_value: amountOutput,
    usage_value: amountOutput,
    usage_value_annual: amountOutput,
    minimum_usage_value: amountOutput,
    meters: z.array(
      z.object({ meter: z.string(), meter_code: z.string(), name: z.string(), minimum_units: z.number().int(), plan_minimum_units: z.number().int() }),
    ),
    cpi_enabled: z.boolean(),
    created: z.string(),
  })
  .meta({ id: 'Subscription' });

export const createdSubscriptionObject = subscriptionObject
  .extend({ invoice: invoiceObject.nullable() })
  .meta({ id: 'CreatedSubscription' });
