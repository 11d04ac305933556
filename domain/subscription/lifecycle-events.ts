import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';
import { scheduleEvents } from './schedule-events';

export const PRORATION_BEHAVIOURS = ['charge_immediately', 'charge_on_renewal'] as const;
export type ProrationBehaviour = (typeof PRORATION_BEHAVIOURS)[number];
export const CHANGE_DOCUMENTS = ['amend', 'separate'] as const;
export type ChangeDocument = (typeof CHANGE_DOCUMENTS)[number];

/** An invoice an end removes in the accounting system: an approved one is voided, any other deleted. */
export const invoiceRemoval = z.object({ invoiceId: z.string(), action: z.enum(['void', 'delete']) });
export type InvoiceRemoval = z.infer<typeof invoiceRemoval>;

/** An invoice that billed part of the next period besides the renewal invoice, and the credit note an end credits those lines with. */
export const nextPeriodCredit = z.object({ invoiceId: z.string(), creditNoteId: z.string() });
export type NextPeriodCredit = z.infer<typeof nextPeriodCredit>;

/**
 * The next period's lines of the invoices besides the renewal invoice (`separate` increases, a
 * restore's re-billing), credited by an end: the next period will not happen. Absent from ends
 * recorded before they were credited.
 */
const nextPeriodCredits = z.array(nextPeriodCredit).optional();

/** A prorated charge carried to the renewal invoice (`charge_on_renewal`), by the change that made it. */
const renewalAdjustment = z.object({ changeId: z.string(), amount: z.string() });

/**
 * The current period's charges an end keeps billed on an invoice of its own, as ending does not
 * credit the current period: the lines of the renewal invoice it removes besides its renewal line
 * (prorated increases carried to it by `charge_on_renewal` or `amend`), and the `charge_on_renewal`
 * adjustments no renewal invoice will bill now. Null when there are none; absent from ends recorded
 * before they were kept (those lost them, and their restore raises the removed lines again).
 */
const carriedCharges = z
  .object({ invoiceId: z.string(), fromInvoiceId: z.string().nullable(), adjustments: z.array(renewalAdjustment) })
  .nullable()
  .optional();

const unitsChanged = z.object({
  subscriptionId: z.string(),
  /** Derived from the request (its Idempotency-Key when sent): a retry finds the change made. */
  changeId: z.string(),
  changedAt: z.string(),
  previousUnits: z.number().int(),
  units: z.number().int(),
  prorate: z.boolean(),
  prorationBehaviour: z.enum(PRORATION_BEHAVIOURS).nullable(),
  effectiveDate: z.string().nullable(),
  document: z.enum(CHANGE_DOCUMENTS).nullable(),
  /** The billing period the change falls in: [periodStart, renewalDate). */
  periodStart: z.string(),
  renewalDate: z.string(),
  /** The units the current period is now billed at (a change without proration leaves them). */
  periodUnits: z.number().int(),
  proration: z
    .object({
      daysLeft: z.number().int(),
      daysInPeriod: z.number().int(),
      /** Σ (whole-period price after − before) × days left over the period's prorated changes, in ten-thousandths × days. */
      numerator: z.string(),
      /** This change's signed amount before discount: positive charges, negative credits. */
      amount: z.string(),
    })
    .nullable(),
  /** The document raised now: an invoice for a charge, a credit note for a credit. */
  invoiceId: z.string().nullable(),
  creditNoteId: z.string().nullable(),
  /** The invoice a credit note reduces (the latest the subscription raised before the change), for its allocation. */
  creditedInvoiceId: z.string().nullable(),
  /** A prorated charge left for the renewal invoice (charge_on_renewal, or amending it). */
  renewalAdjustment: z.string().nullable(),
  /**
   * `document: separate` once the renewal invoice exists: the next period's whole-period difference,
   * billed on this change's document (the renewal invoice keeps `billedUnits`). `amount` is the price
   * of `units` less that of `billedUnits` at the renewal invoice's prices, before discount: positive
   * on the invoice, negative on the credit note. Absent from changes recorded before it was billed.
   */
  nextPeriod: z
    .object({ start: z.string(), end: z.string(), billedUnits: z.number().int(), amount: z.string() })
    .nullable()
    .optional(),
});

const renewalInvoiceRaised = z.object({
  subscriptionId: z.string(),
  invoiceId: z.string(),
  /** The period it bills: [periodStart, periodEnd), periodStart being the renewal date. */
  periodStart: z.string(),
  periodEnd: z.string().optional(),
  units: z.number().int().optional(),
  /** The charge_on_renewal adjustments it bills (they leave the subscription's list). */
  adjustments: z.array(renewalAdjustment).optional(),
});

const endScheduled = z.object({
  subscriptionId: z.string(),
  operationId: z.string(),
  endDate: z.string(),
  removals: z.array(invoiceRemoval),
  nextPeriodCredits,
  carriedCharges,
});

const ended = z.object({
  subscriptionId: z.string(),
  operationId: z.string(),
  endedAt: z.string(),
  endDate: z.string(),
  invoiceUsageNow: z.boolean(),
  removals: z.array(invoiceRemoval),
  nextPeriodCredits,
  carriedCharges,
});

const restored = z.object({
  subscriptionId: z.string(),
  operationId: z.string(),
  from: z.enum(['ended', 'cancel_at_period_end']),
  status: z.enum(['pending', 'active']),
  /** The renewal invoice raised again because ending removed it, and the one it replaces. */
  renewalInvoiceId: z.string().nullable(),
  replacesInvoiceId: z.string().nullable(),
  /** The invoice billing again the next period's lines the end credited (absent from restores recorded before ends credited them). */
  nextPeriodInvoice: z.object({ invoiceId: z.string(), rebills: z.array(nextPeriodCredit) }).nullable().optional(),
  /**
   * The renewal invoice raised again as the scheduler raises one: the next period at the units of the
   * restore (changed since the end, maybe) with the `charge_on_renewal` adjustments made since. Absent
   * where the end that removed it kept no charges (recorded before it did): its lines are raised again.
   */
  renewal: z.object({ periodStart: z.string(), periodEnd: z.string(), units: z.number().int(), adjustments: z.array(renewalAdjustment) }).optional(),
});

export type CarriedCharges = NonNullable<z.infer<typeof carriedCharges>> | null;
export type SubscriptionUnitsChangedData = z.infer<typeof unitsChanged>;

export const lifecycleEvents = defineEvents({
  SubscriptionUnitsChanged: unitsChanged,
  SubscriptionRenewalInvoiceRaised: renewalInvoiceRaised,
  SubscriptionEndScheduled: endScheduled,
  SubscriptionEnded: ended,
  SubscriptionRestored: restored,
  ...scheduleEvents,
});
export type LifecycleEvent<Type extends keyof typeof lifecycleEvents = keyof typeof lifecycleEvents> = EventOf<typeof lifecycleEvents, Type>;
