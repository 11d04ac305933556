import { invoiceDecider } from '../../domain/invoice/decider';
import type { InvoiceEvent } from '../../domain/invoice/events';
import { deciderSpec } from '../support/decider-spec';
import { raisedInvoiceData } from '../support/events';

const spec = deciderSpec(invoiceDecider);

const raised: InvoiceEvent = { type: 'InvoiceRaised', data: raisedInvoiceData('2026-03-15T10:00:00.000Z', '49.9900') };
const failed: InvoiceEvent = { type: 'InvoiceSyncFailed', data: { invoiceId: 'inv_1', error: 'Account 200 is archived' } };
const synced: InvoiceEvent = {
  type: 'InvoiceSynced',
  data: { invoiceId: 'inv_1', accountingInvoiceId: 'x_1', number: 'INV-1', status: 'draft', total: '59.9900', amountPaid: '0.0000', creditNoteAmount: '0.0000', sent: false },
};
const sighting = (status: 'approved' | 'paid', updatedAt: string, amountPaid = '0.0000') => ({
  invoiceId: 'inv_1',
  status,
  total: '59.9900',
  amountPaid,
  creditNoteAmount: '0.0000',
  sent: false,
  updatedAt,
});

describe('invoice decider: sync retries and status sightings', () => {
  it('retries only a refused invoice', () => {
    spec([raised, failed]).when({ type: 'RequestInvoiceSyncRetry', invoiceId: 'inv_1' }).then([{ type: 'InvoiceSyncRetryRequested', data: { invoiceId: 'inv_1' } }]);
    spec([raised]).when({ type: 'RequestInvoiceSyncRetry', invoiceId: 'inv_1' }).thenRefuses('invoice_sync_not_failed');
    spec([raised, synced]).when({ type: 'RequestInvoiceSyncRetry', invoiceId: 'inv_1' }).thenRefuses('invoice_sync_not_failed');
    spec([]).when({ type: 'RequestInvoiceSyncRetry', invoiceId: 'inv_1' }).thenRefuses('invoice_not_found');
  });

  it('records a sighting once: the same change again, or no change from what the push said, adds nothing', () => {
    const approved = sighting('approved', '2026-03-16T09:00:00.000Z');
    spec([raised, synced]).when({ type: 'RecordInvoiceStatusObserved', ...approved }).then([{ type: 'InvoiceStatusObserved', data: approved }]);
    spec([raised, synced, { type: 'InvoiceStatusObserved', data: approved }]).when({ type: 'RecordInvoiceStatusObserved', ...approved }).then([]);
    // The push already said draft with these amounts: a later sighting of the same values is no change.
    spec([raised, synced]).when({ type: 'RecordInvoiceStatusObserved', ...sighting('approved', 'x'), status: 'draft' }).then([]);
    const paid = sighting('paid', '2026-03-17T09:00:00.000Z', '59.9900');
    spec([raised, synced, { type: 'InvoiceStatusObserved', data: approved }]).when({ type: 'RecordInvoiceStatusObserved', ...paid }).then([{ type: 'InvoiceStatusObserved', data: paid }]);
  });
});
