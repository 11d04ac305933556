import type { InvoiceEvent, InvoiceLine, InvoiceRaised } from '../domain/invoice/events';
import type { Projection } from './projection';

export const INVOICES = 'invoices';

const lineObject = (line: InvoiceLine) => ({
  id: line.lineId,
  type: line.type,
  revenue_type: line.revenueType,
  meter: line.meterId,
  usage_quantity: line.usageQuantity,
  name: line.name,
  description: line.description,
  units: line.units,
  amount: line.amount,
  discount_amount: line.discountAmount,
  charge_amount: line.chargeAmount,
  effective_date: line.effectiveDate,
});

/** The Invoice object as raised: not yet in the accounting system. */
const raisedObject = (invoice: InvoiceRaised['data'], created: string) => ({
  id: invoice.invoiceId,
  object: 'invoice' as const,
  customer: invoice.customerId,
  subscription: invoice.subscriptionId,
  number: null as string | null,
  reference: invoice.reference,
  status: 'not_in_external' as string,
  currency: invoice.currency,
  invoice_date: invoice.invoiceDate,
  due_date: invoice.dueDate,
  subtotal: invoice.subtotal,
  // Tax is the accounting system's: until it answers, the total is the subtotal.
  total: invoice.subtotal,
  credit_note_amount: '0.0000',
  amount_paid: null as string | null,
  sent: false,
  accounting: {
    sync_status: 'pending' as 'pending' | 'synced' | 'failed',
    invoice_id: null as string | null,
    sync_error: null as string | null,
  },
  lines: invoice.lines.map(lineObject),
  created,
});

export type InvoiceDoc = ReturnType<typeof raisedObject> & { _organisation: string };

export const invoicesProjection: Projection = {
  name: 'invoices',
  version: 1,
  collections: [INVOICES],
  indexes: [
    { collection: INVOICES, fields: ['_organisation', 'created'] },
    { collection: INVOICES, fields: ['_organisation', 'subscription'] },
  ],
  handles: ['InvoiceRaised', 'InvoiceSynced', 'InvoiceSyncFailed'],
  apply: async (event, context) => {
    const typed = event as unknown as InvoiceEvent;
    if (typed.type === 'InvoiceRaised') {
      context.put(INVOICES, { ...raisedObject(typed.data, event.metadata.businessTime), _organisation: typed.data.organisationId });
      return;
    }
    const doc = await context.get<InvoiceDoc>(INVOICES, typed.data.invoiceId);
    if (!doc) return;
    if (typed.type === 'InvoiceSynced') {
      const { data } = typed;
      context.put(INVOICES, {
        ...doc,
        number: data.number,
        status: data.status,
        total: data.total,
        amount_paid: data.amountPaid,
        credit_note_amount: data.creditNoteAmount,
        sent: data.sent,
        accounting: { sync_status: 'synced', invoice_id: data.accountingInvoiceId, sync_error: null },
      });
    } else {
      context.put(INVOICES, { ...doc, accounting: { sync_status: 'failed', invoice_id: null, sync_error: typed.data.error } });
    }
  },
};
