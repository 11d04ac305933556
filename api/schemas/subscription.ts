import { z } from 'zod';
import type { CreateSubscriptionInput } from '../../commands/subscription/create-subscription';
import { isCalendarDate } from '../../domain/pricing/calendar';
import { formatPercent, parsePercent } from '../../domain/pricing/percent';
import { invoiceDocument } from '../../projections/read-models/invoices';
import { subscriptionDocument } from '../../projections/read-models/subscriptions';
import { customerCode, customerFields, toCustomerFields } from './customer';
import { amountInput } from './money';

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
    .refine((text) => parsePercent(text) !== null, 'must be 0.00 to 100.00')
    .transform((text) => formatPercent(parsePercent(text)!))
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
}).superRefine((body, context) => {
  // With create_customer, customer_code is the new customer's code and keeps the customer code rules;
  // without it, it only looks a customer up (a code no customer can have is not found).
  if (!body.create_customer) return;
  const code = customerCode.safeParse(body.customer_code);
  if (!code.success) context.addIssue({ code: 'custom', message: code.error.issues[0]!.message, path: ['customer_code'] });
});

export const toCreateSubscriptionInput = (body: z.infer<typeof createSubscriptionBody>): CreateSubscriptionInput => ({
  customerCode: body.customer_code,
  createCustomer: body.create_customer ? toCustomerFields(body.create_customer) : null,
  planCode: body.plan_code,
  charges: body.charges.map((c) => ({ chargeId: c.charge, quantity: c.quantity, price: c.price ?? null, applyDiscount: c.apply_discount })),
  request: {
    units: body.units ?? null,
    discountPercent: body.discount_percent,
    invoiceReference: body.invoice_reference ?? null,
    startDate: body.start_date ?? null,
    flatFeePrice: body.flat_fee_price ?? null,
    minimumUnits: body.minimum_units ?? null,
    meters: body.meters.map((m) => ({ meterCode: m.meter_code, minimumUnits: m.minimum_units })),
    endAfterCycles: body.end_after_cycles,
    label: body.label ?? null,
    cpiEnabled: body.cpi_enabled,
  },
});

/** Response objects are the read models' documents without their internal (`_`-prefixed) fields. */
export const invoiceObject = invoiceDocument.omit({ _organisation: true }).meta({ id: 'Invoice' });

export const subscriptionObject = subscriptionDocument.omit({ _organisation: true, _pricing: true, _meters: true, _next_prices: true, _closed_usage: true }).meta({ id: 'Subscription' });

export const createdSubscriptionObject = subscriptionObject
  .extend({ invoice: invoiceObject.nullable() })
  .meta({ id: 'CreatedSubscription' });
