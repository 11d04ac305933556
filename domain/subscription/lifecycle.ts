import { compareDates } from '../pricing/calendar';
import { parseMoney } from '../pricing/money';
import { DomainError } from '../shared/domain-error';
import type { SubscriptionCreatedData } from './events';
import type { LifecycleEvent, NextPeriodCredit } from './lifecycle-events';

/** What a subscription's lifecycle events have changed since its creation. */
export type Lifecycle = Readonly<{
  /** The current total: what the next renewal bills. */
  units: number;
  /** The units the current period is billed at (a change without proration takes effect at renewal). */
  periodUnits: number;
  /** The running proration numerator of the period it started in (see prorateChange). */
  proration: Readonly<{ periodStart: string; numerator: string }> | null;
  /** Prorated charges left for the renewal invoice, oldest first. */
  renewalAdjustments: readonly Readonly<{ changeId: string; amount: string }>[];
  cancelAtPeriodEnd: boolean;
  endDate: string | null;
  /**
   * The units the next period is already billed at: the renewal invoice's, as amended or topped up by
   * `separate` documents since. Null until the renewal invoice is raised, and again once renewed.
   */
  nextPeriodUnits: number | null;
  /** A `separate` change billed part of the next period, so amending the renewal invoice's line would bill it twice. */
  nextPeriodBilledSeparately: boolean;
  /** Invoices besides the renewal invoice that bill part of the next period (`separate` increases, a restore's re-billing). */
  nextPeriodInvoiceIds: readonly string[];
  /** Credit notes of `separate` decreases: each credits part of the next period against the renewal invoice. */
  renewalCreditNoteIds: readonly string[];
  /** What the end credited of those, for a restore to bill again. */
  nextPeriodCredits: readonly NextPeriodCredit[];
  /** The renewal invoice for the next period, once the scheduler raises it; null again once removed. */
  renewalInvoiceId: string | null;
  /** The renewal invoice an end removed, raised again by a restore. */
  removedRenewalInvoiceId: string | null;
  /**
   * The end that removed it kept its current-period charges billed (`carriedCharges`), so a restore
   * raises it afresh at the units of the moment; ends recorded before did not, and their restore
   * raises its lines again.
   */
  removedRenewalInvoiceFresh: boolean;
  /** The prices a CPI uplift set for the next period (taken at its renewal), and the last CPI year applied. */
  nextPrices: Omit<LifecycleEvent<'SubscriptionCpiUplifted'>['data'], 'subscriptionId' | 'periodStart' | 'year' | 'percent'> | null;
  cpiYear: number | null;
  /**
   * The meters as priced before each renewal that changed their prices (a CPI uplift), oldest first:
   * `until` is that renewal's period start. Usage is billed at the prices of the period it was used in.
   */
  metersBefore: readonly Readonly<{ until: string; meters: SubscriptionCreatedData['meters'] }>[];
  /** Every invoice and credit note the subscription raised. */
  invoiceIds: readonly string[];
  creditNoteIds: readonly string[];
  /** Changes, ends and restores done, by their request-derived id: a retry answers the one done. */
  operations: Readonly<Record<string, LifecycleEvent>>;
}>;

export type LiveStatus = 'pending' | 'active' | 'complete' | 'ended';

export type SubscriptionState =
  | { status: 'none' }
  | Readonly<{ status: LiveStatus; subscription: SubscriptionCreatedData; life: Lifecycle }>;

export type ExistingSubscription = Exclude<SubscriptionState, { status: 'none' }>;

export const initialLifecycle = (created: SubscriptionCreatedData): Lifecycle => ({
  units: created.units,
  periodUnits: created.units,
  proration: null,
  renewalAdjustments: [],
  nextPeriodUnits: null,
  nextPeriodBilledSeparately: false,
  nextPeriodInvoiceIds: [],
  renewalCreditNoteIds: [],
  nextPeriodCredits: [],
  cancelAtPeriodEnd: false,
  endDate: created.endDate,
  renewalInvoiceId: null,
  removedRenewalInvoiceId: null,
  removedRenewalInvoiceFresh: false,
  nextPrices: null,
  cpiYear: null,
  metersBefore: [],
  invoiceIds: created.firstInvoiceId ? [created.firstInvoiceId] : [],
  creditNoteIds: [],
  operations: {},
});

/** Folds one lifecycle event into the state it applies to. */
export const evolveLifecycle = (state: ExistingSubscription, event: LifecycleEvent): ExistingSubscription => {
  const life = state.life;
  switch (event.type) {
    case 'SubscriptionUnitsChanged': {
      const { data } = event;
      return {
        ...state,
        life: {
          ...life,
          units: data.units,
          periodUnits: data.periodUnits,
          nextPeriodUnits: data.document === 'amend' || data.nextPeriod ? data.units : life.nextPeriodUnits,
          nextPeriodBilledSeparately: life.nextPeriodBilledSeparately || (data.nextPeriod ? parseMoney(data.nextPeriod.amount) !== 0n : false),
          nextPeriodInvoiceIds:
            data.invoiceId && data.nextPeriod && parseMoney(data.nextPeriod.amount) > 0n ? [...life.nextPeriodInvoiceIds, data.invoiceId] : life.nextPeriodInvoiceIds,
          renewalCreditNoteIds:
            data.creditNoteId && data.nextPeriod && parseMoney(data.nextPeriod.amount) < 0n ? [...life.renewalCreditNoteIds, data.creditNoteId] : life.renewalCreditNoteIds,
          proration: data.proration ? { periodStart: data.periodStart, numerator: data.proration.numerator } : life.proration,
          // An amend bills its adjustment on the renewal invoice it rewrites at once.
          renewalAdjustments: data.renewalAdjustment && data.document !== 'amend'
            ? [...life.renewalAdjustments, { changeId: data.changeId, amount: data.renewalAdjustment }]
            : life.renewalAdjustments,
          invoiceIds: data.invoiceId ? [...life.invoiceIds, data.invoiceId] : life.invoiceIds,
          creditNoteIds: data.creditNoteId ? [...life.creditNoteIds, data.creditNoteId] : life.creditNoteIds,
          operations: { ...life.operations, [data.changeId]: event },
        },
      };
    }
    case 'SubscriptionRenewalInvoiceRaised': {
      const billed = new Set((event.data.adjustments ?? []).map((a) => a.changeId));
      return {
        ...state,
        life: {
          ...life,
          renewalInvoiceId: event.data.invoiceId,
          nextPeriodUnits: event.data.units ?? life.units,
          nextPeriodBilledSeparately: false,
          nextPeriodInvoiceIds: [],
          renewalCreditNoteIds: [],
          nextPeriodCredits: [],
          invoiceIds: [...life.invoiceIds, event.data.invoiceId],
          renewalAdjustments: life.renewalAdjustments.filter((a) => !billed.has(a.changeId)),
        },
      };
    }
    case 'SubscriptionStarted':
      return { ...state, status: 'active' };
    case 'SubscriptionCpiUplifted': {
      const { price, tiers, meters, year } = event.data;
      return { ...state, life: { ...life, nextPrices: { price, tiers, meters }, cpiYear: year } };
    }
    case 'SubscriptionCpiUpliftWithheld':
      return { ...state, life: { ...life, cpiYear: event.data.year } };
    case 'SubscriptionRenewed': {
      const next = life.nextPrices;
      const subscription = state.subscription;
      return {
        ...state,
        subscription: {
          ...subscription,
          currentPeriodStart: event.data.periodStart,
          renewalDate: event.data.renewalDate,
          pricing: next ? { ...subscription.pricing, price: next.price, tiers: next.tiers } : subscription.pricing,
          meters: next
            ? subscription.meters.map((meter) => {
                const risen = next.meters.find((m) => m.meterId === meter.meterId);
                return risen ? { ...meter, price: risen.price, tiers: risen.tiers } : meter;
              })
            : subscription.meters,
        },
        life: {
          ...life,
          metersBefore: next ? [...life.metersBefore, { until: event.data.periodStart, meters: subscription.meters }] : life.metersBefore,
          periodUnits: life.units,
          proration: null,
          nextPeriodUnits: null,
          nextPeriodBilledSeparately: false,
          nextPeriodInvoiceIds: [],
          renewalCreditNoteIds: [],
          nextPeriodCredits: [],
          renewalInvoiceId: null,
          removedRenewalInvoiceId: null,
          removedRenewalInvoiceFresh: false,
          nextPrices: null,
        },
      };
    }
    case 'SubscriptionCompleted':
      return { ...state, status: 'complete' };
    case 'SubscriptionEndScheduled':
    case 'SubscriptionEnded': {
      const renewalRemoved = life.renewalInvoiceId !== null && event.data.removals.some((r) => r.invoiceId === life.renewalInvoiceId);
      const carried = event.data.carriedCharges;
      return {
        ...state,
        status: event.type === 'SubscriptionEnded' ? 'ended' : state.status,
        life: {
          ...life,
          cancelAtPeriodEnd: event.type === 'SubscriptionEndScheduled',
          endDate: event.data.endDate,
          renewalInvoiceId: renewalRemoved ? null : life.renewalInvoiceId,
          removedRenewalInvoiceId: renewalRemoved ? life.renewalInvoiceId : life.removedRenewalInvoiceId,
          removedRenewalInvoiceFresh: renewalRemoved ? carried !== undefined : life.removedRenewalInvoiceFresh,
          renewalAdjustments: carried ? life.renewalAdjustments.filter((a) => !carried.adjustments.some((c) => c.changeId === a.changeId)) : life.renewalAdjustments,
          invoiceIds: carried ? [...life.invoiceIds, carried.invoiceId] : life.invoiceIds,
          // Each one credited now, or removed by the end; an end recorded before credits leaves them billing.
          nextPeriodInvoiceIds: event.data.nextPeriodCredits ? [] : life.nextPeriodInvoiceIds,
          nextPeriodCredits: event.data.nextPeriodCredits ?? life.nextPeriodCredits,
          operations: { ...life.operations, [event.data.operationId]: event },
        },
      };
    }
    case 'SubscriptionRestored': {
      const { data } = event;
      const renewal = data.renewal;
      return {
        ...state,
        status: data.status,
        life: {
          ...life,
          cancelAtPeriodEnd: false,
          endDate: null,
          renewalInvoiceId: data.renewalInvoiceId ?? life.renewalInvoiceId,
          removedRenewalInvoiceId: data.renewalInvoiceId ? null : life.removedRenewalInvoiceId,
          removedRenewalInvoiceFresh: data.renewalInvoiceId ? false : life.removedRenewalInvoiceFresh,
          // Raised afresh, the renewal invoice bills the next period whole: what separate documents billed of it the end credited.
          ...(renewal
            ? {
                nextPeriodUnits: renewal.units,
                nextPeriodBilledSeparately: false,
                nextPeriodInvoiceIds: [],
                nextPeriodCredits: [],
                renewalAdjustments: life.renewalAdjustments.filter((a) => !renewal.adjustments.some((billed) => billed.changeId === a.changeId)),
              }
            : {
                nextPeriodInvoiceIds: data.nextPeriodInvoice ? [...life.nextPeriodInvoiceIds, data.nextPeriodInvoice.invoiceId] : life.nextPeriodInvoiceIds,
                nextPeriodCredits: data.nextPeriodInvoice ? [] : life.nextPeriodCredits,
              }),
          invoiceIds: [...life.invoiceIds, ...[data.renewalInvoiceId, data.nextPeriodInvoice?.invoiceId].filter((id): id is string => Boolean(id))],
          operations: { ...life.operations, [data.operationId]: event },
        },
      };
    }
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

/** `409 invalid_state`: the subscription cannot be ended or restored now; the message says why. */
export const invalidState = (message: string): DomainError => new DomainError('conflict', 'invalid_state', message);

/** The subscription's meters as priced during the period starting on `periodStart` (before a later renewal's CPI uplift). */
export const metersDuring = (state: ExistingSubscription, periodStart: string): SubscriptionCreatedData['meters'] =>
  state.life.metersBefore.find((before) => compareDates(periodStart, before.until) < 0)?.meters ?? state.subscription.meters;
