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
      /** The accounting organisation holding that contact (unknown for a link recorded before it was kept). */
      contactTenantId?: string;
    };

export type CustomerCommand =
  | ({ type: 'ImportCustomer' } & CustomerEvent<'CustomerImported'>['data'])
  | ({ type: 'UpdateCustomer' } & Omit<CustomerEvent<'CustomerUpdated'>['data'], 'customerId'>)
  | { type: 'LinkContact'; accountingContactId: string; tenantId: string };

/**
 * The customer's contact in the accounting organisation `tenantId`, or null where it has none there
 * (never linked, or linked in one the organisation has since moved away from). A contact recorded
 * before its accounting organisation was kept counts as the one in use's.
 */
export const contactIn = (customer: Extract<CustomerState, { customerId: string }>, tenantId: string): string | null =>
  customer.contactTenantId === undefined || customer.contactTenantId === tenantId ? customer.accountingContactId : null;

const evolve = (state: CustomerState, event: CustomerEvent): CustomerState => {
  switch (event.type) {
    case 'CustomerImported': {
      const { customerId, organisationId, code, name, email, accountingContactId, tenantId } = event.data;
      return { status: 'active', customerId, organisationId, code, name, email, accountingContactId, ...(tenantId !== undefined ? { contactTenantId: tenantId } : {}) };
    }
    case 'CustomerUpdated':
      return state.status === 'none' ? state : { ...state, ...event.data.changes };
    case 'CustomerContactLinked':
      return state.status === 'none'
        ? state
        : { ...state, accountingContactId: event.data.accountingContactId, ...(event.data.tenantId !== undefined ? { contactTenantId: event.data.tenantId } : {}) };
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
      // A customer keeps the first contact it was linked to in an accounting organisation.
      if (contactIn(state, command.tenantId) !== null) return [];
      const { customerId, organisationId } = state;
      return [{ type: 'CustomerContactLinked', data: { customerId, organisationId, accountingContactId: command.accountingContactId, tenantId: command.tenantId } }];
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
