import type { OpenOrganisation } from '../organisation/state';
import { inSetupMode } from '../organisation/rules';
import { DomainError } from '../shared/domain-error';
import type { CarriedCharges, InvoiceRemoval, LifecycleEvent, NextPeriodCredit } from './lifecycle-events';
import { type ExistingSubscription, invalidState } from './lifecycle';

/** An invoice of the subscription as the handler found it (its accounting status read at the time of the request). */
export type InvoiceFacts = Readonly<{
  invoiceId: string;
  status: 'not_in_external' | 'draft' | 'awaiting_approval' | 'approved' | 'paid' | 'voided' | 'deleted';
  sent: boolean;
  /** A payment or credit is recorded on it. */
  settled: boolean;
}>;

export type EndSubscription = Readonly<{
  type: 'EndSubscription';
  operationId: string;
  now: string;
  today: string;
  organisation: OpenOrganisation;
  invoices: readonly InvoiceFacts[];
  /** Ids for the credit notes of the next period's lines, by the invoice they credit, derived from the end. */
  nextPeriodCreditNoteIds: Readonly<Record<string, string>>;
  /** The id of the invoice keeping the current period's charges billed, derived from the end. */
  carriedChargesInvoiceId: string;
  /** The renewal invoice bills this period's charges besides the next period (prorated increases carried to it). */
  renewalInvoiceCarriesCharges: boolean;
  request: Readonly<{
    when: 'period_end' | 'now';
    deleteUnsentInvoices: boolean;
    voidApprovedInvoices: boolean;
    invoiceUsageNow: boolean;
  }>;
}>;

const OPTIONS = ['delete_unsent_invoices', 'void_approved_invoices', 'invoice_usage_now'] as const;

/**
 * Every rule of `POST /v1/subscriptions/{id}/end` and the invoices it removes, one at a time, before
 * the subscription ends: its renewal invoice (voided if approved, otherwise deleted), and with
 * `when: now` the never-sent and the approved unpaid invoices when asked. The next period will not
 * happen, so the next period's lines other invoices bill (`separate` increases) are credited, each
 * invoice's by a credit note of its own; the current period is not, so its charges the removed
 * renewal invoice carried, and those left for a renewal invoice that will not come, are billed on an
 * invoice of their own.
 */
export const decideEnd = (command: EndSubscription, state: ExistingSubscription): LifecycleEvent<'SubscriptionEnded'> | LifecycleEvent<'SubscriptionEndScheduled'> => {
  const { request } = command;
  if (request.when === 'period_end') {
    const sent = [request.deleteUnsentInvoices, request.voidApprovedInvoices, request.invoiceUsageNow];
    const index = sent.findIndex(Boolean);
    if (index >= 0) throw new DomainError('invalid', 'invalid_parameter', `${OPTIONS[index]} applies only with when: now.`, OPTIONS[index]);
  }
  if (state.status === 'ended' || state.status === 'complete') throw invalidState(`The subscription has already ${state.status === 'ended' ? 'ended' : 'completed'}.`);
  if (request.when === 'period_end' && state.life.cancelAtPeriodEnd) throw invalidState('The subscription is already set to end at its renewal date.');
  const removesInvoices = request.when === 'now' && (request.deleteUnsentInvoices || request.voidApprovedInvoices);
  if (removesInvoices && inSetupMode(command.organisation)) {
    throw invalidState('The organisation is in Setup Mode: ending now cannot remove invoices.');
  }
  const renewal = command.invoices.find((invoice) => invoice.invoiceId === state.life.renewalInvoiceId);
  if (renewal?.settled) throw invalidState('The renewal invoice has a payment or credit on it; the subscription cannot end.');
  // The accounting system deletes only unsent drafts and voids only approved invoices.
  if (renewal?.sent && (renewal.status === 'draft' || renewal.status === 'awaiting_approval')) {
    throw invalidState('The renewal invoice was sent to the customer before it was approved: the accounting system can neither delete nor void it, so the subscription cannot end.');
  }
  // A separate decrease's credit note reduces the renewal invoice even while unallocated (a draft takes no credit yet).
  const credited = state.life.renewalInvoiceId ? state.life.renewalCreditNoteIds[0] : undefined;
  if (credited) throw invalidState(`Credit note ${credited} credits part of the renewal invoice's period; the subscription cannot end.`);

  const removals: InvoiceRemoval[] = [];
  const remove = (invoice: InvoiceFacts) => {
    if (removals.some((r) => r.invoiceId === invoice.invoiceId)) return;
    removals.push({ invoiceId: invoice.invoiceId, action: invoice.status === 'approved' ? 'void' : 'delete' });
  };
  if (renewal && renewal.status !== 'voided' && renewal.status !== 'deleted') remove(renewal);
  if (request.when === 'now') {
    for (const invoice of command.invoices) {
      const unsent = ['not_in_external', 'draft', 'awaiting_approval'].includes(invoice.status) && !invoice.sent;
      if (request.deleteUnsentInvoices && unsent) remove(invoice);
      if (request.voidApprovedInvoices && invoice.status === 'approved' && !invoice.settled) remove(invoice);
    }
  }
  const nextPeriodCredits = state.life.nextPeriodInvoiceIds
    .filter((invoiceId) => !removals.some((r) => r.invoiceId === invoiceId))
    .map((invoiceId): NextPeriodCredit => {
      const creditNoteId = command.nextPeriodCreditNoteIds[invoiceId];
      if (!creditNoteId) throw new Error(`no credit note id for the next period's lines of ${invoiceId}`);
      return { invoiceId, creditNoteId };
    });
  const renewalRemoved = removals.some((r) => r.invoiceId === state.life.renewalInvoiceId);
  const fromInvoiceId = renewalRemoved && command.renewalInvoiceCarriesCharges ? state.life.renewalInvoiceId : null;
  const adjustments = [...state.life.renewalAdjustments];
  const carriedCharges: CarriedCharges = fromInvoiceId !== null || adjustments.length > 0 ? { invoiceId: command.carriedChargesInvoiceId, fromInvoiceId, adjustments } : null;
  const { subscriptionId } = state.subscription;
  if (request.when === 'period_end') {
    return {
      type: 'SubscriptionEndScheduled',
      data: { subscriptionId, operationId: command.operationId, endDate: state.subscription.renewalDate, removals, nextPeriodCredits, carriedCharges },
    };
  }
  return {
    type: 'SubscriptionEnded',
    data: {
      subscriptionId,
      operationId: command.operationId,
      endedAt: command.now,
      endDate: command.today,
      invoiceUsageNow: request.invoiceUsageNow,
      removals,
      nextPeriodCredits,
      carriedCharges,
    },
  };
};

/** The accounting system refused to remove one of the invoices: the subscription keeps running; those removed stay removed. */
export const removalRefused = (invoiceId: string, reason: string): DomainError =>
  invalidState(`The accounting system refused to remove invoice ${invoiceId}: ${reason} The subscription keeps running.`);
