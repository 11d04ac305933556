import { z } from 'zod';
import type { CreditNoteEvent, CreditNoteRaisedData } from '../../domain/credit-note/events';
import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { amountOutput } from './amount';
import { INVOICE_STATUSES } from './invoices';
import { listIndexes } from '../../infra/read-store/list-indexes';
import type { Projection } from '../engine/projection';

export const CREDIT_NOTES = 'credit_notes';

/** Credit note status uses the invoice values. */
export const CREDIT_NOTE_STATUSES = INVOICE_STATUSES;

/** Whether its credit was applied: none of it, some, or all. */
export const ALLOCATION_STATUSES = ['unallocated', 'partially_allocated', 'fully_allocated'] as const;

/** The Credit note object of the API document; `_`-prefixed fields are internal. */
export const creditNoteDocument = z.object({
  id: z.string(),
  object: z.literal('credit_note'),
  customer: z.string(),
  subscription: z.string().nullable(),
  number: z.string().nullable(),
  reference: z.string().nullable(),
  status: z.enum(CREDIT_NOTE_STATUSES),
  currency: z.string(),
  credit_note_date: z.string(),
  subtotal: amountOutput,
  total: amountOutput,
  remaining_credit: amountOutput,
  allocation_status: z.enum(ALLOCATION_STATUSES),
  sent: z.boolean(),
  accounting: z.object({
    sync_status: z.enum(['synced', 'pending', 'failed']),
    credit_note_id: z.string().nullable(),
    sync_error: z.string().nullable(),
  }),
  lines: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), amount: amountOutput, effective_date: z.string() })),
  allocations: z.array(
    z.object({
      id: z.string(),
      invoice: z.string(),
      amount: amountOutput,
      date: z.string(),
      /** An allocation is recorded once the accounting system has applied it. */
      status: z.enum(['applied']),
      accounting_sync_status: z.enum(['synced']),
    }),
  ),
  created: z.string(),
  _organisation: z.string(),
});
export type CreditNoteDoc = z.infer<typeof creditNoteDocument>;

const toRaisedDocument = (note: CreditNoteRaisedData, created: string): CreditNoteDoc => ({
  id: note.creditNoteId,
  object: 'credit_note',
  customer: note.customerId,
  subscription: note.subscriptionId,
  number: null,
  reference: note.reference,
  status: 'not_in_external',
  currency: note.currency,
  credit_note_date: note.creditNoteDate,
  subtotal: note.subtotal,
  // Tax is the accounting system's: until it answers, the total is the subtotal.
  total: note.subtotal,
  remaining_credit: note.subtotal,
  allocation_status: 'unallocated',
  sent: false,
  accounting: { sync_status: 'pending', credit_note_id: null, sync_error: null },
  lines: note.lines.map((line) => ({ id: line.lineId, name: line.name, description: line.description, amount: line.amount, effective_date: line.effectiveDate })),
  allocations: [],
  created,
  _organisation: note.organisationId,
});

const allocationStatus = (total: string, remaining: string): CreditNoteDoc['allocation_status'] => {
  const left = parseMoney(remaining);
  if (left <= 0n) return 'fully_allocated';
  return left < parseMoney(total) ? 'partially_allocated' : 'unallocated';
};

export const creditNotesProjection: Projection<CreditNoteEvent> = {
  name: 'credit_notes',
  version: 1,
  collections: [CREDIT_NOTES],
  indexes: [...listIndexes(CREDIT_NOTES, ['subscription', 'customer', 'status']), { collection: CREDIT_NOTES, fields: ['_organisation', 'accounting.credit_note_id'] }],
  handles: ['CreditNoteRaised', 'CreditNoteSynced', 'CreditNoteSyncFailed', 'CreditNoteAllocated', 'CreditNoteStatusObserved'],
  apply: async (event, context) => {
    if (event.type === 'CreditNoteRaised') {
      context.put(CREDIT_NOTES, toRaisedDocument(event.data, event.metadata.businessTime));
      return;
    }
    const doc = await context.get<CreditNoteDoc>(CREDIT_NOTES, event.data.creditNoteId);
    if (!doc) return;
    switch (event.type) {
      case 'CreditNoteSynced': {
        const { data } = event;
        context.put(CREDIT_NOTES, {
          ...doc,
          number: data.number,
          status: data.status,
          total: data.total,
          remaining_credit: data.remainingCredit,
          allocation_status: allocationStatus(data.total, data.remainingCredit),
          sent: data.sent,
          accounting: { sync_status: 'synced', credit_note_id: data.accountingCreditNoteId, sync_error: null },
        });
        return;
      }
      case 'CreditNoteSyncFailed':
        context.put(CREDIT_NOTES, { ...doc, accounting: { sync_status: 'failed', credit_note_id: null, sync_error: event.data.error } });
        return;
      case 'CreditNoteAllocated': {
        const { data } = event;
        context.put(CREDIT_NOTES, {
          ...doc,
          status: data.status,
          remaining_credit: formatMoney(parseMoney(data.remainingCredit)),
          allocation_status: allocationStatus(doc.total, data.remainingCredit),
          allocations: [
            ...doc.allocations,
            { id: data.allocationId, invoice: data.invoiceId, amount: data.amount, date: data.date, status: 'applied', accounting_sync_status: 'synced' },
          ],
        });
        return;
      }
      case 'CreditNoteStatusObserved': {
        // What the status poller saw: the accounting system's status, total and credit left (applied there, or voided).
        const { data } = event;
        context.put(CREDIT_NOTES, {
          ...doc,
          status: data.status,
          total: data.total,
          remaining_credit: data.remainingCredit,
          allocation_status: allocationStatus(data.total, data.remainingCredit),
          sent: data.sent,
        });
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
};
