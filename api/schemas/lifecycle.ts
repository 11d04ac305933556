import { z } from 'zod';
import type { ChangeUnits } from '../../domain/subscription/change-units';
import type { EndSubscription } from '../../domain/subscription/end';
import { CHANGE_DOCUMENTS, PRORATION_BEHAVIOURS } from '../../domain/subscription/lifecycle-events';
import { isCalendarDate } from '../../domain/pricing/calendar';
import { creditNoteObject } from './credit-note';
import { documentedAs } from './documented-as';
import { invoiceObject, subscriptionObject } from './subscription';

/**
 * `units` is checked by the unit change rules: a value that is not a whole number from 0 to
 * 999999999 (another type included) is `units_invalid`, so here any value passes and a non-number
 * reaches the rule as NaN; a missing `units` is `invalid_parameter`, like any missing field.
 */
export const changeUnitsBody = z.strictObject({
  units: documentedAs(
    z.union([z.number(), z.unknown().transform(() => Number.NaN)]).describe('Required: the new total, a whole number from 0 to 999999999 (otherwise units_invalid)'),
    { type: 'integer', minimum: 0, maximum: 999_999_999 },
  ),
  prorate: z.boolean().default(false),
  proration_behaviour: z.enum(PRORATION_BEHAVIOURS).optional(),
  effective_date: z.string().refine(isCalendarDate, 'must be a date YYYY-MM-DD').optional(),
  document: z.enum(CHANGE_DOCUMENTS).optional(),
});

export const toChangeUnitsRequest = (body: z.infer<typeof changeUnitsBody>): ChangeUnits['request'] => ({
  units: body.units,
  prorate: body.prorate,
  prorationBehaviour: body.proration_behaviour ?? null,
  effectiveDate: body.effective_date ?? null,
  document: body.document ?? null,
});

export const endSubscriptionBody = z.strictObject({
  when: z.enum(['period_end', 'now']),
  delete_unsent_invoices: z.boolean().default(false),
  void_approved_invoices: z.boolean().default(false),
  invoice_usage_now: z.boolean().default(false),
});

export const toEndRequest = (body: z.infer<typeof endSubscriptionBody>): EndSubscription['request'] => ({
  when: body.when,
  deleteUnsentInvoices: body.delete_unsent_invoices,
  voidApprovedInvoices: body.void_approved_invoices,
  invoiceUsageNow: body.invoice_usage_now,
});

export const restoreSubscriptionBody = z.strictObject({});

/** The decisions page's `change`: what the request changed and the document it raised now, if any. */
export const unitChangeObject = z
  .object({
    units: z.number().int(),
    previous_units: z.number().int(),
    prorate: z.boolean(),
    proration_behaviour: z.enum(PRORATION_BEHAVIOURS).nullable(),
    effective_date: z.string().nullable(),
    document: z.enum(CHANGE_DOCUMENTS).nullable(),
    invoice: invoiceObject.nullable(),
    credit_note: creditNoteObject.nullable(),
  })
  .meta({ id: 'UnitChange' });

export const changedSubscriptionObject = subscriptionObject.extend({ change: unitChangeObject }).meta({ id: 'ChangedSubscription' });
