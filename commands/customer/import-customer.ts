import { customerDecider } from '../../domain/customer/decider';
import { type CustomerImported, customerStream } from '../../domain/customer/events';
import { organisationDecider } from '../../domain/organisation/decider';
import { organisationStream } from '../../domain/organisation/events';
import { DomainError } from '../../domain/shared/domain-error';
import { AccountingRefused, type AccountingSystem, type Contact } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import type { ReadStore } from '../../infra/read-store/port';
import { CUSTOMERS } from '../../projections/customers';
import type { CommandDeps } from '../deps';
import { handle, loadState } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export type CustomerInput = Readonly<{
  code: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
}>;

export type ImportDeps = CommandDeps & Readonly<{ accounting: AccountingSystem; readStore: ReadStore }>;

/** A customer's id derives from its organisation and code: one customer per code, whoever asks twice. */
export const customerIdFor = (organisationId: string, code: string): string => derivedId('customer', organisationId, code);

const accountingError = (message: string) => new DomainError('accounting', 'accounting_error', message);

/**
 * The API document's three steps, each safe to repeat: an existing customer with the code is
 * returned; else a contact with that contact number is adopted; else the contact is created
 * (idempotently, keyed by the customer's id) and adopted.
 */
export const importCustomer = async (
  deps: ImportDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  input: CustomerInput,
): Promise<{ customerId: string; created: boolean; position: bigint }> => {
  const customerId = customerIdFor(organisation.id, input.code);
  const existing = await loadState(deps.store, customerStream(customerId), customerDecider);
  if (existing.state.status !== 'none') return { customerId, created: false, position: 0n };

  const { state } = await loadState(deps.store, organisationStream(organisation.id), organisationDecider);
  if (state.status !== 'open') throw new DomainError('not_found', 'organisation_not_found', 'No such organisation.');
  if (!state.accounting) {
    throw new DomainError('conflict', 'accounting_not_connected', 'The organisation is not connected to the accounting system.');
  }
  const limit = state.planLimits.customers;
  // A sandbox is never counted against the plan's limits.
  if (organisation.livemode && limit !== null) {
    const count = await deps.readStore.count(CUSTOMERS, [{ field: '_organisation', eq: organisation.id }]);
    if (count >= limit) {
      throw new DomainError('permission', 'plan_limit_reached', `The organisation's plan allows ${limit} customers.`);
    }
  }

  const ledger = deps.accounting.tenant(state.accounting.tenantId);
  let contact: Contact | null;
  let source: CustomerImported['data']['source'] = 'adopted_contact';
  try {
    contact = await ledger.findContactByNumber(input.code);
    if (contact?.archived) {
      throw new DomainError('conflict', 'accounting_contact_archived', `The contact with code ${input.code} is archived.`, 'code');
    }
    if (contact) {
      const owner = await deps.readStore.findAll(CUSTOMERS, [
        { field: '_organisation', eq: organisation.id },
        { field: 'accounting_contact_id', eq: contact.id },
      ]);
      if (owner.length > 0) {
        throw new DomainError('conflict', 'customer_not_importable', `The contact with code ${input.code} belongs to another customer.`, 'code');
      }
    } else {
      source = 'created_contact';
      contact = await ledger.createContact(
        { name: input.name, contactNumber: input.code, email: input.email, firstName: input.firstName, lastName: input.lastName },
        `contact-${customerId}`,
      );
    }
  } catch (error) {
    if (!(error instanceof AccountingRefused)) throw error instanceof DomainError ? error : accountingError(String((error as Error).message));
    if (error.code === 'contact_name_taken') {
      throw new DomainError('conflict', 'accounting_contact_name_taken', error.message, 'name');
    }
    if (error.code === 'contact_number_taken') {
      throw new DomainError('conflict', 'customer_not_created', `A contact with code ${input.code} appeared meanwhile; try again.`, 'code');
    }
    throw accountingError(error.message);
  }

  const result = await handle(
    deps.store,
    customerStream(customerId),
    customerDecider,
    {
      type: 'ImportCustomer',
      customerId,
      organisationId: organisation.id,
      code: input.code,
      name: input.name,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      accountingContactId: contact.id,
      source,
    },
    eventMetadata(caller, organisation, deps.clocks),
  );
  return { customerId, created: result.events.length > 0, position: result.position };
};
