import { creditNotesProjection } from '../../projections/read-models/credit-notes';
import { invoicesProjection } from '../../projections/read-models/invoices';
import { subscriptionsProjection } from '../../projections/read-models/subscriptions';
import { raisedCreditNoteData } from '../support/events';
import { projectionSpec } from '../support/projection-spec';
import { londonSubscription, londonSubscriptionDocument } from '../support/subscription-fixtures';

const T0 = '2026-01-01T00:00:00.000Z';

const created = londonSubscription;
const document = londonSubscriptionDocument;

const unitsChanged = {
  subscriptionId: 'sub_1',
  changeId: 'c1',
  changedAt: T0,
  previousUnits: 5,
  units: 8,
  prorate: false,
  prorationBehaviour: null,
  effectiveDate: null,
  document: null,
  periodStart: '2026-01-01',
  renewalDate: '2026-02-01',
  periodUnits: 5,
  proration: null,
  invoiceId: null,
  creditNoteId: null,
  creditedInvoiceId: null,
  renewalAdjustment: null,
};

describe('lifecycle projections: given events, then documents', () => {
  it('subscriptions: units change with values recomputed, then set to end at period end', async () => {
    await projectionSpec(subscriptionsProjection)
      .given([
        { type: 'SubscriptionCreated', data: created },
        { type: 'SubscriptionUnitsChanged', data: unitsChanged },
        { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'e1', endDate: '2026-02-01', removals: [] } },
      ])
      // 8 × 10.0000 = 80.0000, less 10 % = 72.0000
      .then('subscriptions', [{ ...document, units: 8, renewal_value: '72.0000', cancel_at_period_end: true, end_date: '2026-02-01' }]);
  });

  it('subscriptions: ended now, then restored (end date and cancel_at_period_end cleared)', async () => {
    const ended = { subscriptionId: 'sub_1', operationId: 'e1', endedAt: T0, endDate: '2026-01-10', invoiceUsageNow: false, removals: [] };
    await projectionSpec(subscriptionsProjection)
      .given([{ type: 'SubscriptionCreated', data: created }, { type: 'SubscriptionEnded', data: ended }])
      .then('subscriptions', [{ ...document, status: 'ended', end_date: '2026-01-10' }]);
    await projectionSpec(subscriptionsProjection)
      .given([
        { type: 'SubscriptionCreated', data: created },
        { type: 'SubscriptionEnded', data: ended },
        { type: 'SubscriptionRestored', data: { subscriptionId: 'sub_1', operationId: 'r1', from: 'ended', status: 'active', renewalInvoiceId: null, replacesInvoiceId: null } },
      ])
      .then('subscriptions', [document]);
  });

  const invoiceRaised = { invoiceId: 'inv_1', organisationId: 'org_1', customerId: 'cus_1', subscriptionId: 'sub_1', currency: 'GBP', reference: null, invoiceDate: T0, dueDate: null, lines: [], subtotal: '45.0000' };

  it('invoices: removed by an end shows voided or deleted; a credit note applied to it adds to its credit_note_amount', async () => {
    const allocated = (amount: string) => ({
      type: 'CreditNoteAllocated',
      data: { creditNoteId: 'cn_1', allocationId: 'al_1', invoiceId: 'inv_1', amount, date: T0, remainingCredit: '0.0000', status: 'paid' },
    });
    await projectionSpec(invoicesProjection)
      .given([
        { type: 'InvoiceRaised', data: invoiceRaised },
        allocated('12.0000'),
        allocated('3.5000'),
        { type: 'InvoiceRemoved', data: { invoiceId: 'inv_1', status: 'deleted' } },
      ])
      .then('invoices', [
        {
          id: 'inv_1',
          object: 'invoice',
          customer: 'cus_1',
          subscription: 'sub_1',
          number: null,
          reference: null,
          status: 'deleted',
          currency: 'GBP',
          invoice_date: T0,
          due_date: null,
          subtotal: '45.0000',
          total: '45.0000',
          // 12.0000 + 3.5000 applied
          credit_note_amount: '15.5000',
          amount_paid: null,
          sent: false,
          accounting: { sync_status: 'pending', invoice_id: null, sync_error: null },
          lines: [],
          created: T0,
          _organisation: 'org_1',
        },
      ]);
  });

  it('credit notes: raised, synced with number and total, then allocated to the invoice it reduces', async () => {
    const raised = {
      ...raisedCreditNoteData(T0, '20.0000'),
      reference: 'PO-1',
      lines: [{ lineId: 'il_1', name: 'Seats', description: '8 → 6 units', amount: '20.0000', effectiveDate: T0 }],
    };
    const base = {
      id: 'cn_1',
      object: 'credit_note',
      customer: 'cus_1',
      subscription: 'sub_1',
      reference: 'PO-1',
      currency: 'GBP',
      credit_note_date: T0,
      subtotal: '20.0000',
      sent: false,
      lines: [{ id: 'il_1', name: 'Seats', description: '8 → 6 units', amount: '20.0000', effective_date: T0 }],
      created: T0,
      _organisation: 'org_1',
    };
    // Not yet in the accounting system: the total is the subtotal, all of it still to apply.
    const unsynced = { ...base, number: null, status: 'not_in_external', total: '20.0000', remaining_credit: '20.0000', allocation_status: 'unallocated', allocations: [] };
    await projectionSpec(creditNotesProjection)
      .given([{ type: 'CreditNoteRaised', data: raised }])
      .then('credit_notes', [{ ...unsynced, accounting: { sync_status: 'pending', credit_note_id: null, sync_error: null } }]);
    const synced = { creditNoteId: 'cn_1', accountingCreditNoteId: 'ext_cn', number: 'CN-0001', status: 'approved', total: '22.0000', remainingCredit: '22.0000', sent: false };
    const allocated = { creditNoteId: 'cn_1', allocationId: 'al_1', invoiceId: 'inv_1', amount: '12.0000', date: T0, remainingCredit: '10.0000', status: 'approved' };
    await projectionSpec(creditNotesProjection)
      .given([
        { type: 'CreditNoteRaised', data: raised },
        { type: 'CreditNoteSynced', data: synced },
        { type: 'CreditNoteAllocated', data: allocated },
      ])
      .then('credit_notes', [
        {
          ...base,
          number: 'CN-0001',
          status: 'approved',
          total: '22.0000',
          remaining_credit: '10.0000',
          allocation_status: 'partially_allocated',
          accounting: { sync_status: 'synced', credit_note_id: 'ext_cn', sync_error: null },
          allocations: [{ id: 'al_1', invoice: 'inv_1', amount: '12.0000', date: T0, status: 'applied', accounting_sync_status: 'synced' }],
        },
      ]);
    await projectionSpec(creditNotesProjection)
      .given([
        { type: 'CreditNoteRaised', data: raised },
        { type: 'CreditNoteSyncFailed', data: { creditNoteId: 'cn_1', error: 'The contact is archived.' } },
      ])
      .then('credit_notes', [{ ...unsynced, accounting: { sync_status: 'failed', credit_note_id: null, sync_error: 'The contact is archived.' } }]);
  });
});
