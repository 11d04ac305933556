import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { CreditNoteAllocated, CreditNoteEvent, CreditNoteRaisedData, CreditNoteSynced } from './events';

export type CreditNoteState =
  | { status: 'none' }
  | Readonly<{
      status: 'raised';
      creditNote: CreditNoteRaisedData;
      sync: 'pending' | 'failed' | 'synced';
      accountingCreditNoteId: string | null;
      remainingCredit: string;
      allocatedTo: readonly string[];
    }>;

export type CreditNoteCommand =
  | ({ type: 'RaiseCreditNote' } & CreditNoteRaisedData)
  /** With the allocation made right after the push, when there was one: both recorded in one append. */
  | ({ type: 'RecordCreditNoteSynced'; allocation?: CreditNoteAllocated['data'] } & CreditNoteSynced['data'])
  | { type: 'RecordCreditNoteSyncFailed'; creditNoteId: string; error: string }
  | ({ type: 'RecordCreditNoteAllocated' } & CreditNoteAllocated['data']);

const evolve = (state: CreditNoteState, event: CreditNoteEvent): CreditNoteState => {
  switch (event.type) {
    case 'CreditNoteRaised':
      return { status: 'raised', creditNote: event.data, sync: 'pending', accountingCreditNoteId: null, remainingCredit: event.data.subtotal, allocatedTo: [] };
    case 'CreditNoteSynced':
      return state.status === 'none' ? state : { ...state, sync: 'synced', accountingCreditNoteId: event.data.accountingCreditNoteId, remainingCredit: event.data.remainingCredit };
    case 'CreditNoteSyncFailed':
      return state.status === 'none' ? state : { ...state, sync: 'failed' };
    case 'CreditNoteAllocated':
      return state.status === 'none' ? state : { ...state, remainingCredit: event.data.remainingCredit, allocatedTo: [...state.allocatedTo, event.data.invoiceId] };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const requireRaised = (state: CreditNoteState) => {
  if (state.status === 'none') throw new DomainError('not_found', 'credit_note_not_found', 'No such credit note.');
  return state;
};

const decide = (command: CreditNoteCommand, state: CreditNoteState): CreditNoteEvent[] => {
  switch (command.type) {
    case 'RaiseCreditNote': {
      // Raised again under its derived id (a retry): nothing new.
      if (state.status !== 'none') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'CreditNoteRaised', data }];
    }
    case 'RecordCreditNoteSynced': {
      if (requireRaised(state).sync === 'synced') return [];
      const { type: _type, allocation, ...data } = command;
      return [{ type: 'CreditNoteSynced', data }, ...(allocation ? [{ type: 'CreditNoteAllocated' as const, data: allocation }] : [])];
    }
    case 'RecordCreditNoteSyncFailed':
      if (requireRaised(state).sync === 'synced') return [];
      return [{ type: 'CreditNoteSyncFailed', data: { creditNoteId: command.creditNoteId, error: command.error } }];
    case 'RecordCreditNoteAllocated': {
      if (requireRaised(state).allocatedTo.includes(command.invoiceId)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'CreditNoteAllocated', data }];
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const creditNoteDecider: Decider<CreditNoteState, CreditNoteCommand, CreditNoteEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
