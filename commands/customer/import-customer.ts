import {
  accountingError,
  checkAdoption,
  checkExisting,
  checkImport,
  checkRequester,
  type ContactFound,
  contactRefusal,
  CUSTOMER_BODY_PARAMS,
  type CustomerParams,
  type CustomerRequest,
  importedCustomer,
  type ImportRequester,
} from '../../domain/customer/import';
import { resetScope } from '../../domain/organisation/rules';
import { DomainError } from '../../domain/shared/domain-error';
import { AccountingRefused, type AccountingSystem } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { customerCommand } from '../customer/customer-command';
import { loadOpenOrganisation } from '../organisation/load-open-organisation';
import type { CommandDeps } from '../deps';
import type { Lookups } from '../lookups';
import { type Caller, type OrganisationRef, refOf } from '../metadata';

export type CustomerInput = CustomerRequest;

export type ImportDeps = CommandDeps & Readonly<{ accounting: AccountingSystem; lookups: Lookups }>;

/** A customer's id derives from its organisation and code (and the sandbox's reset generation): one customer per code, whoever asks twice. */
export const customerIdFor = (organisationId: string, resetGeneration: number, code: string): string =>
  derivedId('customer', organisationId, ...resetScope(resetGeneration), code);

/** Asks the accounting system, turning its answers into the API's refusals. */
const askLedger = async <T>(call: () => Promise<T>, code: string, params: CustomerParams): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof AccountingRefused) throw contactRefusal(error.code, error.message, code, params);
    throw accountingError(String((error as Error).message));
  }
};

/**
 * The API document's three steps, each safe to repeat: an existing customer with the code is
 * returned; else a contact with that contact number is adopted; else the contact is created
 * (idempotently, keyed by the customer's id) and adopted. The rules live in `domain/customer/import.ts`.
 */
export const importCustomer = async (
  deps: ImportDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: CustomerInput,
  options: Readonly<{ requester: ImportRequester; params?: CustomerParams }>,
): Promise<{ customerId: string; created: boolean; position: bigint }> => {
  const params = options.params ?? CUSTOMER_BODY_PARAMS;
  const org = await loadOpenOrganisation(deps.store, organisation.id);
  checkRequester(org, options.requester);
  const customerId = customerIdFor(org.organisationId, org.resetGeneration, input.code);
  const existing = await customerCommand.load(deps.store, customerId);
  if (existing.state.status !== 'none') {
    checkExisting(options.requester, input.code, customerId);
    return { customerId, created: false, position: 0n };
  }
  const accounting = checkImport(org, await deps.lookups.customerCount(organisation.id));

  const ledger = deps.accounting.tenant(accounting.tenantId);
  let contact: ContactFound | null = await askLedger(() => ledger.findContactByNumber(input.code), input.code, params);
  let source: 'adopted_contact' | 'created_contact' = 'adopted_contact';
  if (contact) {
    checkAdoption(contact, await deps.lookups.customerWithContact(organisation.id, contact.id), input.code, params);
  } else {
    source = 'created_contact';
    contact = await askLedger(
      () =>
        ledger.createContact(
          { name: input.name, contactNumber: input.code, email: input.email, firstName: input.firstName, lastName: input.lastName },
          `contact-${customerId}`,
        ),
      input.code,
      params,
    );
  }

  const result = await customerCommand(deps, customerId, {
    type: 'ImportCustomer',
    ...importedCustomer({ customerId, organisationId: organisation.id }, input, contact, accounting.tenantId, source),
  }, caller, refOf(org));
  // Another request imported the same code meanwhile.
  if (result.events.length === 0) checkExisting(options.requester, input.code, customerId);
  return { customerId, created: result.events.length > 0, position: result.position };
};
