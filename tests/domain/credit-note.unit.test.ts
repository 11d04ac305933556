import { creditNoteDecider } from '../../domain/credit-note/decider';
import type { CreditNoteEvent } from '../../domain/credit-note/events';
import { deciderSpec } from '../support/decider-spec';
import { raisedCreditNoteData } from '../support/events';

const spec = deciderSpec(creditNoteDecider);

const raised: CreditNoteEvent = { type: 'CreditNoteRaised', data: raisedCreditNoteData('2026-03-15T10:00:00.000Z', '10.0000') };
// 10.0000 credited plus 10 % tax: 11.0000, all of it left to apply.
const pushed = { creditNoteId: 'cn_1', accountingCreditNoteId: 'acn_1', number: 'CN-1', status: 'approved' as const, total: '11.0000', remainingCredit: '11.0000', sent: false };
const synced: CreditNoteEvent = { type: 'CreditNoteSynced', data: pushed };
// Applied in full to the invoice it reduces: nothing left, and the accounting system calls it paid.
const allocation = { creditNoteId: 'cn_1', allocationId: 'al_1', invoiceId: 'inv_1', amount: '11.0000', date: '2026-03-15T10:00:00.000Z', remainingCredit: '0.0000', status: 'paid' as const };
const sighting = (status: 'approved' | 'paid' | 'voided', remainingCredit: string, updatedAt: string) => ({ creditNoteId: 'cn_1', status, total: '11.0000', remainingCredit, sent: false, updatedAt });

describe('credit note decider: push, allocation and status sightings', () => {
  it('records a push and the allocation made with it in one decision, and a push once', () => {
    spec([raised]).when({ type: 'RecordCreditNoteSynced', ...pushed, allocation }).then([synced, { type: 'CreditNoteAllocated', data: allocation }]);
    spec([raised]).when({ type: 'RecordCreditNoteSynced', ...pushed }).then([synced]);
    spec([raised, synced]).when({ type: 'RecordCreditNoteSynced', ...pushed, allocation }).then([]);
  });

  it('records a sighting once: the same change again, or what the push or allocation already said, adds nothing', () => {
    const applied = sighting('paid', '0.0000', '2026-03-16T09:00:00.000Z');
    spec([raised, synced]).when({ type: 'RecordCreditNoteStatusObserved', ...applied }).then([{ type: 'CreditNoteStatusObserved', data: applied }]);
    spec([raised, synced, { type: 'CreditNoteStatusObserved', data: applied }]).when({ type: 'RecordCreditNoteStatusObserved', ...applied }).then([]);
    spec([raised, synced]).when({ type: 'RecordCreditNoteStatusObserved', ...sighting('approved', '11.0000', 'later') }).then([]);
    spec([raised, synced, { type: 'CreditNoteAllocated', data: allocation }]).when({ type: 'RecordCreditNoteStatusObserved', ...applied }).then([]);
    const voided = sighting('voided', '11.0000', '2026-03-17T09:00:00.000Z');
    spec([raised, synced]).when({ type: 'RecordCreditNoteStatusObserved', ...voided }).then([{ type: 'CreditNoteStatusObserved', data: voided }]);
    spec([]).when({ type: 'RecordCreditNoteStatusObserved', ...voided }).thenRefuses('credit_note_not_found');
  });
});
