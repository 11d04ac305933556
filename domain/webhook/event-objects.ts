import type { CreditNoteState } from '../credit-note/decider';
import type { CustomerState } from '../customer/decider';
import type { InvoiceState } from '../invoice/decider';
import type { SubscriptionState } from '../subscription/decider';
import type { WebhookEventType } from './event-types';

/** `data.object` of a webhook event: the object's id, its type, and its tracked fields. */
export type TrackedObject = Readonly<{ id: string; object: string } & Record<string, unknown>>;

export type WebhookEventDraft = Readonly<{
  type: WebhookEventType;
  object: TrackedObject;
  /** Previous values of the tracked fields that changed; absent on created, deleted and test events. */
  previousAttributes?: Record<string, unknown>;
}>;

export const invoiceObject = (state: InvoiceState): TrackedObject | null =>
  state.status === 'none'
    ? null
    : {
        id: state.invoice.invoiceId,
        object: 'invoice',
        status: state.status === 'removed' ? state.removal : (state.observed?.status ?? 'not_in_external'),
        customer: state.invoice.customerId,
        subscription: state.invoice.subscriptionId,
        number: state.number,
        total: state.observed?.total ?? state.invoice.subtotal,
        accounting_sync_status: state.sync,
      };

export const customerObject = (state: CustomerState): TrackedObject | null =>
  state.status === 'none' ? null : { id: state.customerId, object: 'customer', code: state.code, name: state.name, email: state.email, status: state.status };

export const subscriptionObject = (state: SubscriptionState): TrackedObject | null =>
  state.status === 'none'
    ? null
    : {
        id: state.subscription.subscriptionId,
        object: 'subscription',
        status: state.status,
        customer: state.subscription.customerId,
        plan: state.subscription.planId,
        units: state.life.units,
        renewal_date: state.subscription.renewalDate,
        end_date: state.life.endDate,
        cancel_at_period_end: state.life.cancelAtPeriodEnd,
      };

export const creditNoteObject = (state: CreditNoteState): TrackedObject | null =>
  state.status === 'none'
    ? null
    : {
        id: state.creditNote.creditNoteId,
        object: 'credit_note',
        customer: state.creditNote.customerId,
        subscription: state.creditNote.subscriptionId,
        total: state.creditNote.subtotal,
        remaining_credit: state.remainingCredit,
        accounting_sync_status: state.sync,
      };

const changedFrom = (before: TrackedObject, after: TrackedObject): Record<string, unknown> => {
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after)) if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  return previous;
};

/** The API document's `…updated`-style event for a change, or none when no tracked field changed. */
const updated = (type: WebhookEventType, before: TrackedObject | null, after: TrackedObject | null): WebhookEventDraft[] => {
  if (!before || !after) return [];
  const previousAttributes = changedFrom(before, after);
  return Object.keys(previousAttributes).length === 0 ? [] : [{ type, object: after, previousAttributes }];
};

const created = (type: WebhookEventType, after: TrackedObject | null): WebhookEventDraft[] => (after ? [{ type, object: after }] : []);

/**
 * The webhook events a domain event announces, from the object's tracked fields before and after
 * it. A status sighting names what happened (`invoice.paid`, `invoice.voided`, `invoice.deleted`);
 * everything a single sighting changed arrives in one event, so changes made between two polls
 * are combined (one `invoice.paid` whose previous status is `draft`).
 */
export const webhookEventsOf = (eventType: string, before: TrackedObject | null, after: TrackedObject | null): WebhookEventDraft[] => {
  switch (eventType) {
    case 'CustomerImported':
      return created('customer.created', after);
    case 'CustomerUpdated':
      return updated('customer.updated', before, after);
    case 'SubscriptionCreated':
      return created('subscription.created', after);
    // The API document's operations table: ending at period end and restoring are subscription.updated.
    case 'SubscriptionUnitsChanged':
    case 'SubscriptionEndScheduled':
    case 'SubscriptionRestored':
    case 'SubscriptionRenewalInvoiceRaised':
    case 'SubscriptionStarted':
    case 'SubscriptionRenewed':
    case 'SubscriptionCompleted':
      return updated('subscription.updated', before, after);
    case 'SubscriptionEnded':
      return updated('subscription.ended', before, after);
    case 'CreditNoteRaised':
      return created('credit_note.created', after);
    case 'CreditNoteSynced':
    case 'CreditNoteSyncFailed':
    case 'CreditNoteAllocated':
    case 'CreditNoteStatusObserved':
      return updated('credit_note.updated', before, after);
    case 'InvoiceRemoved':
      if (after?.status === 'deleted') return [{ type: 'invoice.deleted', object: after }];
      return updated('invoice.voided', before, after);
    case 'InvoiceRaised':
      return created('invoice.created', after);
    case 'InvoiceSynced':
    case 'InvoiceSyncFailed':
    case 'InvoiceSyncRetryRequested':
    case 'InvoiceLinesAmended':
      return updated('invoice.updated', before, after);
    case 'InvoiceStatusObserved': {
      if (!before || !after || before.status === after.status) return updated('invoice.updated', before, after);
      if (after.status === 'deleted') return [{ type: 'invoice.deleted', object: after }];
      const type = after.status === 'paid' ? 'invoice.paid' : after.status === 'voided' ? 'invoice.voided' : 'invoice.updated';
      return updated(type, before, after);
    }
    default:
      return [];
  }
};
