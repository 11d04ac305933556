import { z } from 'zod';
import type { EventDefinition } from '../shared/event-definition';

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
export type CreditNoteRaised = { type: 'CreditNoteRaised'; data: CreditNoteRaisedData };
export type CreditNoteSynced = { type: 'CreditNoteSynced'; data: z.infer<typeof synced> };
export type CreditNoteSyncFailed = { type: 'CreditNoteSyncFailed'; data: z.infer<typeof syncFailed> };
export type CreditNoteAllocated = { type: 'CreditNoteAllocated'; data: z.infer<typeof allocated> };
export type CreditNoteStatusObserved = { type: 'CreditNoteStatusObserved'; data: z.infer<typeof statusObserved> };
export type CreditNoteEvent = CreditNoteRaised | CreditNoteSynced | CreditNoteSyncFailed | CreditNoteAllocated | CreditNoteStatusObserved;

export const creditNoteEventDefinitions: EventDefinition[] = [
  { type: 'CreditNoteRaised', version: 1, schema: raised },
  { type: 'CreditNoteSynced', version: 1, schema: synced },
  { type: 'CreditNoteSyncFailed', version: 1, schema: syncFailed },
  { type: 'CreditNoteAllocated', version: 1, schema: allocated },
  { type: 'CreditNoteStatusObserved', version: 1, schema: statusObserved },
];

export const creditNoteStream = (creditNoteId: string): string => `credit_note-${creditNoteId}`;
