import type { OpenOrganisation } from '../organisation/state';
import { requireAccountingConnected, requireContactCreationAllowed, requireWithinPlanLimit } from '../organisation/rules';
import { DomainError } from '../shared/domain-error';
import type { CustomerImported } from './events';

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

/** Checked first, even when the customer exists. */
export const checkRequester = (organisation: OpenOrganisation, requester: ImportRequester): void => {
  if (requester === 'api') requireContactCreationAllowed(organisation);
};

export const checkExisting = (requester: ImportRequester, code: string, customerId: string): void => {
  if (requester === 'operator') {
    throw new DomainError('conflict', 'customer_exists', `A customer with code ${code} exists: ${customerId}.`, 'code');
  }
};

/** Before the accounting system is asked anything: connected, and within the customer limit. */
export const checkImport = (organisation: OpenOrganisation, customerCount: number) => {
  const accounting = requireAccountingConnected(organisation);
  requireWithinPlanLimit(organisation, 'customers', customerCount);
  return accounting;
};

/** Step 2: an archived contact, or one another customer holds, cannot be adopted. */
export const checkAdoption = (contact: ContactFound, heldBy: string | null, code: string, params: CustomerParams): void => {
  if (contact.archived) throw new DomainError('conflict', 'accounting_contact_archived', `The contact with code ${code} is archived.`, params.code);
  if (heldBy !== null) {
    throw new DomainError('conflict', 'customer_not_importable', `The contact with code ${code} belongs to another customer.`, params.code);
  }
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
  source: CustomerImported['data']['source'],
): CustomerImported['data'] => ({
  ...ids,
  code: request.code,
  ...(source === 'adopted_contact'
    ? { name: contact.name, firstName: contact.firstName, lastName: contact.lastName, email: contact.email }
    : { name: request.name, firstName: request.firstName, lastName: request.lastName, email: request.email }),
  accountingContactId: contact.id,
  tenantId,
  source,
});
