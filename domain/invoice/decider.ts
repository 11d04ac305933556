import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { documentNotAvailable } from '../subscription/change-units';
import type { InvoiceEvent } from './events';

/** What the accounting system last said of the invoice (at its push, then at each poll that saw a change). */
export type Observed = Omit<InvoiceEvent<'InvoiceStatusObserved'>['data'], 'invoiceId' | 'updatedAt'> & { updatedAt: string | null };

export type InvoiceState =
  | { status: 'none' }
  | {
      status: 'raised';
      invoice: InvoiceEvent<'InvoiceRaised'>['data'];
      sync: 'pending' | 'failed' | 'synced';
      accountingInvoiceId?: string;
      /** The accounting organisation holding it (unknown for a push recorded before it was kept). */
      accountingTenantId?: string;
      number: string | null;
      observed: Observed | null;
      /** The unit changes that amended its lines, so each amends it once. */
      amendedBy?: readonly string[];
    }
  | {
      status: 'removed';
      invoice: InvoiceEvent<'InvoiceRaised'>['data'];
      removal: InvoiceEvent<'InvoiceRemoved'>['data']['status'];
      sync: 'pending' | 'failed' | 'synced';
      number: string | null;
      observed: Observed | null;
    };

export type InvoiceCommand =
  | ({ type: 'RaiseInvoice' } & InvoiceEvent<'InvoiceRaised'>['data'])
  | ({ type: 'RecordInvoiceSynced' } & InvoiceEvent<'InvoiceSynced'>['data'])
  | { type: 'RecordInvoiceSyncFailed'; invoiceId: string; error: string }
  | ({ type: 'RecordInvoiceRemoved' } & InvoiceEvent<'InvoiceRemoved'>['data'])
  | { type: 'RequestInvoiceSyncRetry'; invoiceId: string }
  | ({ type: 'RecordInvoiceStatusObserved' } & InvoiceEvent<'InvoiceStatusObserved'>['data'])
  | ({ type: 'AmendInvoiceLines' } & InvoiceEvent<'InvoiceLinesAmended'>['data']);

const sameObservation = (a: Observed, b: Omit<Observed, 'updatedAt'>): boolean =>
  a.status === b.status && a.total === b.total && a.amountPaid === b.amountPaid && a.creditNoteAmount === b.creditNoteAmount && a.sent === b.sent;

const evolve = (state: InvoiceState, event: InvoiceEvent): InvoiceState => {
  switch (event.type) {
    case 'InvoiceRaised':
      return { status: 'raised', invoice: event.data, sync: 'pending', number: null, observed: null };
    case 'InvoiceSynced': {
      if (state.status !== 'raised') return state;
      const { status, total, amountPaid, creditNoteAmount, sent } = event.data;
      return {
        ...state,
        sync: 'synced',
        accountingInvoiceId: event.data.accountingInvoiceId,
        ...(event.data.tenantId !== undefined ? { accountingTenantId: event.data.tenantId } : {}),
        number: event.data.number,
        observed: { status, total, amountPaid, creditNoteAmount, sent, updatedAt: null },
      };
    }
    case 'InvoiceSyncFailed':
      return state.status !== 'raised' ? state : { ...state, sync: 'failed' };
    case 'InvoiceSyncRetryRequested':
      return state.status !== 'raised' ? state : { ...state, sync: 'pending' };
    case 'InvoiceStatusObserved': {
      if (state.status === 'none') return state;
      const { invoiceId: _id, ...observed } = event.data;
      return { ...state, observed };
    }
    case 'InvoiceLinesAmended': {
      if (state.status !== 'raised') return state;
      const { lines, subtotal, total, changeId } = event.data;
      return {
        ...state,
        invoice: { ...state.invoice, lines, subtotal },
        observed: state.observed && total !== null ? { ...state.observed, total } : state.observed,
        amendedBy: [...(state.amendedBy ?? []), changeId],
      };
    }
    case 'InvoiceRemoved':
      return state.status === 'none'
        ? state
        : {
            status: 'removed',
            invoice: state.invoice,
            removal: event.data.status,
            sync: state.sync,
            number: state.number,
            observed: state.observed ? { ...state.observed, status: event.data.status } : null,
          };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const decide = (command: InvoiceCommand, state: InvoiceState): InvoiceEvent[] => {
  switch (command.type) {
    case 'RaiseInvoice': {
      // Raising the same invoice again (a retry under its derived id) changes nothing.
      if (state.status !== 'none') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'InvoiceRaised', data }];
    }
    case 'RecordInvoiceSynced': {
      if (state.status === 'none') throw new DomainError('not_found', 'invoice_not_found', 'No such invoice.');
      if (state.status === 'removed' || state.sync === 'synced') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'InvoiceSynced', data }];
    }
    case 'RecordInvoiceSyncFailed':
      if (state.status === 'none') throw new DomainError('not_found', 'invoice_not_found', 'No such invoice.');
      if (state.status === 'removed' || state.sync === 'synced') return [];
      return [{ type: 'InvoiceSyncFailed', data: { invoiceId: command.invoiceId, error: command.error } }];
    case 'RecordInvoiceRemoved': {
      if (state.status === 'none') throw new DomainError('not_found', 'invoice_not_found', 'No such invoice.');
      if (state.status === 'removed') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'InvoiceRemoved', data }];
    }
    case 'RequestInvoiceSyncRetry':
      if (state.status === 'none') throw new DomainError('not_found', 'invoice_not_found', 'No such invoice.');
      if (state.status === 'removed' || state.sync !== 'failed') {
        const now = state.status === 'removed' ? state.removal : state.sync;
        throw new DomainError('conflict', 'invoice_sync_not_failed', `Only an invoice the accounting system refused can be retried; this one is ${now}.`);
      }
      return [{ type: 'InvoiceSyncRetryRequested', data: { invoiceId: command.invoiceId } }];
    case 'RecordInvoiceStatusObserved': {
      if (state.status === 'none') throw new DomainError('not_found', 'invoice_not_found', 'No such invoice.');
      // A change seen once is recorded once: the same sighting again, or no change from what is known, adds nothing.
      if (state.observed && (state.observed.updatedAt === command.updatedAt || sameObservation(state.observed, command))) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'InvoiceStatusObserved', data }];
    }
    case 'AmendInvoiceLines': {
      if (state.status === 'none') throw new DomainError('not_found', 'invoice_not_found', 'No such invoice.');
      if (state.status === 'removed') throw documentNotAvailable('The renewal invoice was removed: it cannot be amended.');
      if (state.amendedBy?.includes(command.changeId)) return [];
      const { type: _type, ...data } = command;
      return [{ type: 'InvoiceLinesAmended', data }];
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const invoiceDecider: Decider<InvoiceState, InvoiceCommand, InvoiceEvent> = { initialState: () => ({ status: 'none' }), evolve, decide };
