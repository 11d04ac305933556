import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { InvoiceEvent, InvoiceRaised, InvoiceRemoved, InvoiceSynced } from './events';

export type InvoiceState =
  | { status: 'none' }
  | { status: 'raised'; invoice: InvoiceRaised['data']; sync: 'pending' | 'failed' | 'synced'; accountingInvoiceId?: string }
  | { status: 'removed'; invoice: InvoiceRaised['data']; removal: InvoiceRemoved['data']['status'] };

export type InvoiceCommand =
  | ({ type: 'RaiseInvoice' } & InvoiceRaised['data'])
  | ({ type: 'RecordInvoiceSynced' } & InvoiceSynced['data'])
  | { type: 'RecordInvoiceSyncFailed'; invoiceId: string; error: string }
  | ({ type: 'RecordInvoiceRemoved' } & InvoiceRemoved['data']);

const evolve = (state: InvoiceState, event: InvoiceEvent): InvoiceState => {
  switch (event.type) {
    case 'InvoiceRaised':
      return { status: 'raised', invoice: event.data, sync: 'pending' };
    case 'InvoiceSynced':
      return state.status !== 'raised' ? state : { ...state, sync: 'synced', accountingInvoiceId: event.data.accountingInvoiceId };
    case 'InvoiceSyncFailed':
      return state.status !== 'raised' ? state : { ...state, sync: 'failed' };
    case 'InvoiceRemoved':
      return state.status === 'none' ? state : { status: 'removed', invoice: state.invoice, removal: event.data.status };
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
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const invoiceDecider: Decider<InvoiceState, InvoiceCommand, InvoiceEvent> = { initialState: () => ({ status: 'none' }), evolve, decide };
