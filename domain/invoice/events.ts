import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';

export const invoiceLineSchema = z.object({
  lineId: z.string(),
  type: z.enum(['subscription', 'addon', 'charge', 'usage']),
  revenueType: z.enum(['new_subscription', 'expansion', 'renewal', 'usage']).nullable(),
  meterId: z.string().nullable(),
  usageQuantity: z.string().nullable(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  units: z.number().int().nullable(),
  /** What the accounting line is priced at: quantity × unit amount = amount. */
  quantity: z.string(),
  unitAmount: z.string(),
  amount: z.string(),
  discountAmount: z.string(),
  chargeAmount: z.string(),
  effectiveDate: z.string().nullable(),
  /** `usage` lines go to the usage revenue account, the rest to revenue. */
  account: z.enum(['revenue', 'usage_revenue']),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const accountingDocumentStatus = z.enum(['draft', 'awaiting_approval', 'approved', 'paid', 'voided', 'deleted']);
export type AccountingDocumentStatus = z.infer<typeof accountingDocumentStatus>;

const raised = z.object({
  invoiceId: z.string(),
  organisationId: z.string(),
  customerId: z.string(),
  subscriptionId: z.string().nullable(),
  currency: z.string(),
  reference: z.string().nullable(),
  invoiceDate: z.string(),
  dueDate: z.string().nullable(),
  lines: z.array(invoiceLineSchema),
  subtotal: z.string(),
});

const synced = z.object({
  invoiceId: z.string(),
  accountingInvoiceId: z.string(),
  number: z.string(),
  status: accountingDocumentStatus,
  total: z.string(),
  amountPaid: z.string(),
  creditNoteAmount: z.string(),
  sent: z.boolean(),
  /** The accounting organisation it was pushed to (absent from pushes recorded before it was kept). */
  tenantId: z.string().optional(),
});

const syncFailed = z.object({ invoiceId: z.string(), error: z.string() });

const syncRetryRequested = z.object({ invoiceId: z.string() });

/** What the status poller saw of the invoice in the accounting system: every tracked field as it stood then. */
const statusObserved = z.object({
  invoiceId: z.string(),
  status: accountingDocumentStatus,
  total: z.string(),
  amountPaid: z.string(),
  creditNoteAmount: z.string(),
  sent: z.boolean(),
  /** The accounting system's own change time, so the same sighting is recognised again. */
  updatedAt: z.string(),
});
/**
 * A unit change with `document: amend` rewrote the renewal invoice's lines (in the accounting system
 * too, when it was there: `total` is what it answered, tax included).
 */
const linesAmended = z.object({
  invoiceId: z.string(),
  changeId: z.string(),
  lines: z.array(invoiceLineSchema),
  subtotal: z.string(),
  total: z.string().nullable(),
});
/** Ending a subscription voided (approved) or deleted (any other) the invoice in the accounting system. */
const removed = z.object({ invoiceId: z.string(), status: z.enum(['voided', 'deleted']) });

export const invoiceEvents = defineEvents({
  InvoiceRaised: raised,
  InvoiceSynced: synced,
  InvoiceSyncFailed: syncFailed,
  InvoiceSyncRetryRequested: syncRetryRequested,
  InvoiceStatusObserved: statusObserved,
  InvoiceRemoved: removed,
  InvoiceLinesAmended: linesAmended,
});
export type InvoiceEvent<Type extends keyof typeof invoiceEvents = keyof typeof invoiceEvents> = EventOf<typeof invoiceEvents, Type>;

export const invoiceStream = (invoiceId: string): string => `invoice-${invoiceId}`;
