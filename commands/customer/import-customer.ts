import {
  acceptContact,
  accountingError,
  type ContactFound,
  contactRefusal,
  CUSTOMER_BODY_PARAMS,
  type CustomerParams,
  type CustomerRequest,
  importedCustomer,
  type ImportRequester,
  planImport,
  refuseExisting,
} from '../../domain/customer/import';
import { planLimit } from '../../domain/organisation/rules';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { DomainError } from '../../domain/shared/domain-error';
import { AccountingRefused, type AccountingSystem } from '../../infra/accounting/port';
import { customerCommand } from '../plumbing/customer-command';
import type { CommandDeps } from '../plumbing/deps';
import { customerIdFor } from '../plumbing/ids-by-code';
import { loadOpenOrganisation } from '../plumbing/load-open-organisation';
import type { Lookups } from '../plumbing/lookups';
import { type Caller, type OrganisationRef, refOf } from '../plumbing/metadata';

export type CustomerInput = CustomerRequest;

export type ImportDeps = CommandDeps & Readonly<{ accounting: AccountingSystem; lookups: Lookups }>;

type ImportOptions = Readonly<{ requester: ImportRequester; params?: CustomerParams }>;

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
 * The API document's three steps for an organisation the caller loaded, each safe to repeat: an
 * existing customer with the code is returned; else a contact with that contact number is adopted;
 * else the contact is created (idempotently, keyed by the customer's id) and adopted. The rules
 * decide twice, around the accounting system's answer (`planImport`, `acceptContact`).
 */
export const importCustomerInto = async (
  deps: ImportDeps,
  caller: Caller,
  org: OpenOrganisation,
  input: CustomerInput,
  options: ImportOptions,
): Promise<{ customerId: string; created: boolean; position: bigint }> => {
  const params = options.params ?? CUSTOMER_BODY_PARAMS;
  const customerId = customerIdFor(org.organisationId, org.resetGeneration, input.code);
  const existingId = (await customerCommand.load(deps.store, customerId)).state.status === 'none' ? null : customerId;
  const customerCount = existingId === null && planLimit(org, 'customers') !== null ? await deps.lookups.customerCount(org.organisationId) : 0;
  const accounting = planImport({ organisation: org, requester: options.requester, code: input.code, existingId, customerCount });
  if (!accounting) return { customerId, created: false, position: 0n };

  const ledger = deps.accounting.tenant(accounting.tenantId);
  const found: ContactFound | null = await askLedger(() => ledger.findContactByNumber(input.code), input.code, params);
  const heldBy = found ? await deps.lookups.customerWithContact(org.organisationId, found.id) : null;
  const decided = acceptContact(input, found, heldBy, params);
  const contact = decided.source === 'adopted_contact' ? decided.contact : await askLedger(() => ledger.createContact(decided.contact, `contact-${customerId}`), input.code, params);

  const result = await customerCommand(deps, customerId, {
    type: 'ImportCustomer',
    ...importedCustomer({ customerId, organisationId: org.organisationId }, input, contact, accounting.tenantId, decided.source),
  }, caller, refOf(org));
  // Another request imported the same code meanwhile.
  if (result.events.length === 0) refuseExisting(options.requester, input.code, customerId);
  return { customerId, created: result.events.length > 0, position: result.position };
};

/** `importCustomerInto` the organisation the command acts for, loaded from its stream. */
export const importCustomer = async (deps: ImportDeps, caller: Caller, organisation: OrganisationRef, input: CustomerInput, options: ImportOptions) =>
  importCustomerInto(deps, caller, await loadOpenOrganisation(deps.store, organisation.id), input, options);
