import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { CustomerEvent } from './events';

export type CustomerStatus = 'active' | 'inactive';

export type CustomerState =
  | { status: 'none' }
  | {
      status: CustomerStatus;
      customerId: string;
      organisationId: string;
      code: string | null;
      name: string | null;
      email: string | null;
      accountingContactId: string | null;
    };

export type CustomerCommand =
  | ({ type: 'ImportCustomer' } & CustomerEvent<'CustomerImported'>['data'])
  | ({ type: 'UpdateCustomer' } & Omit<CustomerEvent<'CustomerUpdated'>['data'], 'customerId'>)
  | { type: 'LinkContact'; accountingContactId: string };

const evolve = (state: CustomerState, event: CustomerEvent): CustomerState => {
  switch (event.type) {
    case 'CustomerImported': {
      const { customerId, organisationId, code, name, email, accountingContactId } = event.data;
      return { status: 'active', customerId, organisationId, code, name, email, accountingContactId };
    }
    case 'CustomerUpdated':
      return state.status === 'none' ? state : { ...state, ...event.data.changes };
    case 'CustomerContactLinked':
      return state.status === 'none' ? state : { ...state, accountingContactId: event.data.accountingContactId };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const decide = (command: CustomerCommand, state: CustomerState): CustomerEvent[] => {
  switch (command.type) {
    case 'ImportCustomer': {
      // Importing the same customer again is a no-op: the caller reads the existing one back.
      if (state.status !== 'none') return [];
      const { type: _type, ...data } = command;
      return [{ type: 'CustomerImported', data }];
    }
    case 'LinkContact': {
      if (state.status === 'none') throw new DomainError('not_found', 'customer_not_found', 'No such customer.', 'id');
      // A customer keeps the first contact it was linked to.
      if (state.accountingContactId !== null) return [];
      const { customerId, organisationId } = state;
      return [{ type: 'CustomerContactLinked', data: { customerId, organisationId, accountingContactId: command.accountingContactId } }];
    }
    case 'UpdateCustomer': {
      if (state.status === 'none' || state.organisationId !== command.organisationId) {
        throw new DomainError('not_found', 'customer_not_found', 'No such customer.', 'id');
      }
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([key, value]) => value !== undefined && state[key as keyof typeof command.changes] !== value,
        ),
      );
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'CustomerUpdated', data: { customerId: state.customerId, organisationId: state.organisationId, changes } }];
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const customerDecider: Decider<CustomerState, CustomerCommand, CustomerEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
