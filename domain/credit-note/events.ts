import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';

export const DOCUMENT_STATUSES = ['draft', 'awaiting_approval', 'approved', 'paid', 'voided', 'deleted'] as const;

export const creditNoteLineSchema = z.object({
  lineId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Positive: what the line credits, net of discount. */
  amount: z.string(),
  effectiveDate: z.string(),
});
export type CreditNoteLine = z.infer<typeof creditNoteLineSchema>;

const raised = z.object({
  creditNoteId: z.string(),
  organisationId: z.string(),
  customerId: z.string(),
  subscriptionId: z.string().nullable(),
  /** The invoice whose amount it reduces, allocated to it where the accounting system allows. */
  invoiceId: z.string().nullable(),
  currency: z.string(),
  reference: z.string().nullable(),
  creditNoteDate: z.string(),
  lines: z.array(creditNoteLineSchema),
  subtotal: z.string(),
});

const synced = z.object({
  creditNoteId: z.string(),
  accountingCreditNoteId: z.string(),
  number: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  total: z.string(),
  remainingCredit: z.string(),
  sent: z.boolean(),
});

const syncFailed = z.object({ creditNoteId: z.string(), error: z.string() });

const allocated = z.object({
  creditNoteId: z.string(),
  allocationId: z.string(),
  invoiceId: z.string(),
  amount: z.string(),
  date: z.string(),
  remainingCredit: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
});

/** What the status poller saw of the credit note in the accounting system: its tracked fields as they stood then. */
const statusObserved = z.object({
  creditNoteId: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  total: z.string(),
  remainingCredit: z.string(),
  sent: z.boolean(),
  /** The accounting system's own change time, so the same sighting is recognised again. */
  updatedAt: z.string(),
});

export type CreditNoteRaisedData = z.infer<typeof raised>;

export const creditNoteEvents = defineEvents({
  CreditNoteRaised: raised,
  CreditNoteSynced: synced,
  CreditNoteSyncFailed: syncFailed,
  CreditNoteAllocated: allocated,
  CreditNoteStatusObserved: statusObserved,
});
export type CreditNoteEvent<Type extends keyof typeof creditNoteEvents = keyof typeof creditNoteEvents> = EventOf<typeof creditNoteEvents, Type>;

export const creditNoteStream = (creditNoteId: string): string => `credit_note-${creditNoteId}`;
