import type { CustomerState } from '../../domain/customer/decider';
import type { OpenOrganisation } from '../../domain/organisation/state';
import type { AccountingSystem } from '../../infra/accounting/port';
import type { CommandDeps } from '../plumbing/deps';
import { type Caller, refOf } from '../plumbing/metadata';
import { customerCommand } from '../plumbing/customer-command';

/**
 * The contact a customer copied into a sandbox gets on its first invoice (the API document): the
 * demonstration organisation's contact whose number is the customer's code, else one created from
 * its name and code (not its email), keyed by the customer's id so a retry makes no second one.
 * Null for a customer without a code, which no contact can be found or made for. Accounting refusals
 * and outages reach the caller, which records them as it records a failed push.
 */
export const contactOnFirstInvoice = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  organisation: OpenOrganisation,
  customer: Extract<CustomerState, { customerId: string }>,
): Promise<string | null> => {
  if (customer.accountingContactId !== null) return customer.accountingContactId;
  if (customer.code === null || organisation.accounting === null) return null;
  const ledger = deps.accounting.tenant(organisation.accounting.tenantId);
  const contact =
    (await ledger.findContactByNumber(customer.code)) ??
    (await ledger.createContact({ name: customer.name ?? customer.code, contactNumber: customer.code }, `contact-${customer.customerId}`));
  const linked = await customerCommand(deps, customer.customerId, { type: 'LinkContact', accountingContactId: contact.id }, caller, refOf(organisation));
  return linked.state.status === 'none' ? null : linked.state.accountingContactId;
};
