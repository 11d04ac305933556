import type { AccountingConnection, OpenOrganisation } from '../organisation/state';
import { requireAccountingConnected, requireContactCreationAllowed, requireWithinPlanLimit } from '../organisation/rules';
import { DomainError } from '../shared/domain-error';
import type { CustomerEvent } from './events';

/**
 * The rules of importing a customer (the API document's three steps): find the customer by code,
 * else adopt the accounting contact whose contact number is the code, else create that contact.
 */

/** Which request fields a refusal names: `POST /v1/customers` sends `code` and `name`; a subscription's `customer_code` and `create_customer.name`. */
export type CustomerParams = Readonly<{ code: string; name: string }>;
export const CUSTOMER_BODY_PARAMS: CustomerParams = { code: 'code', name: 'name' };
export const CREATE_CUSTOMER_PARAMS: CustomerParams = { code: 'customer_code', name: 'create_customer.name' };

/** Who asks: the public API needs the organisation's permission to create contacts; the operator's import does not, and refuses a code already imported. */
export type ImportRequester = 'api' | 'operator';

export type ContactFound = Readonly<{
  id: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  archived: boolean;
}>;

export type CustomerRequest = Readonly<{ code: string; name: string; firstName: string | null; lastName: string | null; email: string | null }>;

/** An operator's import refuses a code a customer already has; the API answers that customer. */
export const refuseExisting = (requester: ImportRequester, code: string, customerId: string): void => {
  if (requester === 'operator') {
    throw new DomainError('conflict', 'customer_exists', `A customer with code ${code} exists: ${customerId}.`, 'code');
  }
};

/** What an import is decided on before the accounting system is asked anything, as the handler loaded it. */
export type ImportFacts = Readonly<{
  organisation: OpenOrganisation;
  requester: ImportRequester;
  code: string;
  /** The customer with the code, where its stream holds one. */
  existingId: string | null;
  /** The organisation's customers, where its plan caps them (`planLimit`; else 0). */
  customerCount: number;
}>;

/**
 * Step 1, before the accounting system is asked: the API needs the organisation's permission to
 * create contacts (checked first, even when the customer exists); an existing customer is the answer
 * (an operator's import refuses it); else the organisation must be connected and within its customer
 * limit, and the contact is sought in the accounting system it answers (null: the customer exists).
 */
export const planImport = (facts: ImportFacts): AccountingConnection | null => {
  const { organisation, requester, existingId } = facts;
  if (requester === 'api') requireContactCreationAllowed(organisation);
  if (existingId !== null) {
    refuseExisting(requester, facts.code, existingId);
    return null;
  }
  const accounting = requireAccountingConnected(organisation);
  requireWithinPlanLimit(organisation, 'customers', facts.customerCount);
  return accounting;
};

/** What step 2 came to: the contact found, adopted; or none, so one is created from the request. */
export type ContactDecision = Readonly<{ source: 'adopted_contact'; contact: ContactFound }> | Readonly<{ source: 'created_contact'; contact: NewContactRequest }>;

/** A new contact as the request describes it; its contact number is the customer's code. */
export type NewContactRequest = Readonly<{ name: string; contactNumber: string; email: string | null; firstName: string | null; lastName: string | null }>;

/**
 * Step 2, given the accounting system's contact with the code's number (and the customer holding it,
 * if any): adopted, unless archived or another customer's; with none, step 3 creates it.
 */
export const acceptContact = (request: CustomerRequest, found: ContactFound | null, heldBy: string | null, params: CustomerParams): ContactDecision => {
  if (!found) {
    const { code, name, email, firstName, lastName } = request;
    return { source: 'created_contact', contact: { name, contactNumber: code, email, firstName, lastName } };
  }
  if (found.archived) throw new DomainError('conflict', 'accounting_contact_archived', `The contact with code ${request.code} is archived.`, params.code);
  if (heldBy !== null) {
    throw new DomainError('conflict', 'customer_not_importable', `The contact with code ${request.code} belongs to another customer.`, params.code);
  }
  return { source: 'adopted_contact', contact: found };
};

/** What the accounting system's refusal of a new contact means to the caller. */
export const contactRefusal = (refusal: string, message: string, code: string, params: CustomerParams): DomainError => {
  if (refusal === 'contact_name_taken') return new DomainError('conflict', 'accounting_contact_name_taken', message, params.name);
  if (refusal === 'contact_number_taken') {
    return new DomainError('conflict', 'customer_not_created', `A contact with code ${code} appeared meanwhile; try again.`, params.code);
  }
  return accountingError(message);
};

export const accountingError = (message: string): DomainError => new DomainError('accounting', 'accounting_error', message);

/** The customer as recorded: an adopted contact keeps its own name and email, as the accounting system holds them. */
export const importedCustomer = (
  ids: Readonly<{ customerId: string; organisationId: string }>,
  request: CustomerRequest,
  contact: ContactFound,
  tenantId: string,
  source: CustomerEvent<'CustomerImported'>['data']['source'],
): CustomerEvent<'CustomerImported'>['data'] => ({
  ...ids,
  code: request.code,
  ...(source === 'adopted_contact'
    ? { name: contact.name, firstName: contact.firstName, lastName: contact.lastName, email: contact.email }
    : { name: request.name, firstName: request.firstName, lastName: request.lastName, email: request.email }),
  accountingContactId: contact.id,
  tenantId,
  source,
});
