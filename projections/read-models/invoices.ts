import { z } from 'zod';
import type { CreditNoteEvent } from '../../domain/credit-note/events';
import type { InvoiceEvent, InvoiceLine } from '../../domain/invoice/events';
import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { amountOutput } from './amount';
import { listIndexes } from '../../infra/read-store/list-indexes';
import type { Projection, ProjectionContext } from '../engine/projection';

export const INVOICES = 'invoices';

export const INVOICE_STATUSES = ['draft', 'awaiting_approval', 'approved', 'paid', 'voided', 'deleted', 'not_in_external'] as const;

const invoiceLineDocument = z
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

/** The Invoice object of the API document; `_`-prefixed fields are internal. */
export const invoiceDocument = z.object({
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
  lines: z.array(invoiceLineDocument),
  created: z.string(),
  _organisation: z.string(),
});
export type InvoiceDoc = z.infer<typeof invoiceDocument>;

const toLineDocument = (line: InvoiceLine): InvoiceDoc['lines'][number] => ({
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

/** An invoice's document as raised: not yet in the accounting system. */
const toRaisedDocument = (invoice: InvoiceEvent<'InvoiceRaised'>['data'], created: string): InvoiceDoc => ({
  id: invoice.invoiceId,
  object: 'invoice',
  customer: invoice.customerId,
  subscription: invoice.subscriptionId,
  number: null,
  reference: invoice.reference,
  status: 'not_in_external',
  currency: invoice.currency,
  invoice_date: invoice.invoiceDate,
  due_date: invoice.dueDate,
  subtotal: invoice.subtotal,
  // Tax is the accounting system's: until it answers, the total is the subtotal.
  total: invoice.subtotal,
  credit_note_amount: '0.0000',
  amount_paid: null,
  sent: false,
  accounting: { sync_status: 'pending', invoice_id: null, sync_error: null },
  lines: invoice.lines.map(toLineDocument),
  created,
  _organisation: invoice.organisationId,
});

/** A credit note applied to an invoice adds to its `credit_note_amount`. */
const creditApplied = async ({ data }: CreditNoteEvent<'CreditNoteAllocated'>, context: ProjectionContext): Promise<void> => {
  const doc = await context.get<InvoiceDoc>(INVOICES, data.invoiceId);
  if (doc) context.put(INVOICES, { ...doc, credit_note_amount: formatMoney(parseMoney(doc.credit_note_amount) + parseMoney(data.amount)) });
};

export const invoicesProjection: Projection<InvoiceEvent | CreditNoteEvent<'CreditNoteAllocated'>> = {
  name: 'invoices',
  version: 1,
  collections: [INVOICES],
  // The list's filters; the status poller finds invoices by the accounting system's id.
  indexes: [...listIndexes(INVOICES, ['subscription', 'customer', 'status']), { collection: INVOICES, fields: ['_organisation', 'accounting.invoice_id'] }],
  handles: ['InvoiceRaised', 'InvoiceSynced', 'InvoiceSyncFailed', 'InvoiceRemoved', 'CreditNoteAllocated', 'InvoiceSyncRetryRequested', 'InvoiceStatusObserved', 'InvoiceLinesAmended'],
  apply: async (event, context) => {
    if (event.type === 'CreditNoteAllocated') return creditApplied(event, context);
    if (event.type === 'InvoiceRaised') {
      context.put(INVOICES, toRaisedDocument(event.data, event.metadata.businessTime));
      return;
    }
    const doc = await context.get<InvoiceDoc>(INVOICES, event.data.invoiceId);
    if (!doc) return;
    switch (event.type) {
      case 'InvoiceSynced': {
        const { data } = event;
        context.put(INVOICES, {
          ...doc,
          number: data.number,
          status: data.status,
          total: data.total,
          amount_paid: data.amountPaid,
          credit_note_amount: data.creditNoteAmount,
          sent: data.sent,
          accounting: { sync_status: 'synced', invoice_id: data.accountingInvoiceId, sync_error: null },
        } satisfies InvoiceDoc);
        return;
      }
      case 'InvoiceSyncFailed':
        context.put(INVOICES, { ...doc, accounting: { sync_status: 'failed', invoice_id: null, sync_error: event.data.error } } satisfies InvoiceDoc);
        return;
      case 'InvoiceRemoved':
        context.put(INVOICES, { ...doc, status: event.data.status } satisfies InvoiceDoc);
        return;
      case 'InvoiceSyncRetryRequested':
        context.put(INVOICES, { ...doc, accounting: { sync_status: 'pending', invoice_id: null, sync_error: null } } satisfies InvoiceDoc);
        return;
      case 'InvoiceStatusObserved': {
        const { data } = event;
        context.put(INVOICES, {
          ...doc,
          status: data.status,
          total: data.total,
          amount_paid: data.amountPaid,
          credit_note_amount: data.creditNoteAmount,
          sent: data.sent,
        } satisfies InvoiceDoc);
        return;
      }
      case 'InvoiceLinesAmended': {
        const { data } = event;
        context.put(INVOICES, {
          ...doc,
          lines: data.lines.map(toLineDocument),
          subtotal: data.subtotal,
          total: data.total ?? data.subtotal,
        } satisfies InvoiceDoc);
        return;
      }
      default:
        return;
    }
  },
};
