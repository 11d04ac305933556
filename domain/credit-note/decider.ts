import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { CreditNoteEvent, CreditNoteRaisedData } from './events';

/** What is known of the credit note in the accounting system (`updatedAt` null when known from our own push or allocation). */
export type ObservedCreditNote = Omit<CreditNoteEvent<'CreditNoteStatusObserved'>['data'], 'creditNoteId' | 'updatedAt'> & { updatedAt: string | null };

export type CreditNoteState =
  | { status: 'none' }
  | Readonly<{
      status: 'raised';
      creditNote: CreditNoteRaisedData;
      sync: 'pending' | 'failed' | 'synced';
      accountingCreditNoteId: string | null;
      remainingCredit: string;
      allocatedTo: readonly string[];
      observed: ObservedCreditNote | null;
    }>;

export type CreditNoteCommand =
  | ({ type: 'RaiseCreditNote' } & CreditNoteRaisedData)
  /** With the allocation made right after the push, when there was one: both recorded in one append. */
  | ({ type: 'RecordCreditNoteSynced'; allocation?: CreditNoteEvent<'CreditNoteAllocated'>['data'] } & CreditNoteEvent<'CreditNoteSynced'>['data'])
  | { type: 'RecordCreditNoteSyncFailed'; creditNoteId: string; error: string }
  | ({ type: 'RecordCreditNoteAllocated' } & CreditNoteEvent<'CreditNoteAllocated'>['data'])
  | ({ type: 'RecordCreditNoteStatusObserved' } & CreditNoteEvent<'CreditNoteStatusObserved'>['data']);

const sameObservation = (a: ObservedCreditNote, b: Omit<ObservedCreditNote, 'updatedAt'>): boolean =>
  a.status === b.status && a.total === b.total && a.remainingCredit === b.remainingCredit && a.sent === b.sent;

const evolve = (state: CreditNoteState, event: CreditNoteEvent): CreditNoteState => {
  switch (event.type) {
    case 'CreditNoteRaised':
      return { status: 'raised', creditNote: event.data, sync: 'pending', accountingCreditNoteId: null, remainingCredit: event.data.subtotal, allocatedTo: [], observed: null };
    case 'CreditNoteSynced': {
      if (state.status === 'none') return state;
      const { status, total, remainingCredit, sent } = event.data;
      return { ...state, sync: 'synced', accountingCreditNoteId: event.data.accountingCreditNoteId, remainingCredit, observed: { status, total, remainingCredit, sent, updatedAt: null } };
    }
    case 'CreditNoteSyncFailed':
      return state.status === 'none' ? state : { ...state, sync: 'failed' };
    case 'CreditNoteAllocated':
      return state.status === 'none'
        ? state
        : {
            ...state,
            remainingCredit: event.data.remainingCredit,
            allocatedTo: [...state.allocatedTo, event.data.invoiceId],
            observed: state.observed && { ...state.observed, status: event.data.status, remainingCredit: event.data.remainingCredit, updatedAt: null },
          };
    case 'CreditNoteStatusObserved': {
      if (state.status === 'none') return state;
      const { creditNoteId: _id, ...observed } = event.data;
      return { ...state, remainingCredit: observed.remainingCredit, observed };
    }
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
    case 'RecordCreditNoteStatusObserved': {
      const current = requireRaised(state);
      // A change seen once is recorded once: the same sighting again, or no change from what is known, adds nothing.
      if (current.observed && (current.observed.updatedAt === command.updatedAt || sameObservation(current.observed, command))) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'CreditNoteStatusObserved', data }];
    }
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
