import { contactIn, type CustomerState } from '../../domain/customer/decider';
import type { OpenOrganisation } from '../../domain/organisation/state';
import type { AccountingSystem } from '../../infra/accounting/port';
import type { CommandDeps } from '../plumbing/deps';
import { type Caller, refOf } from '../plumbing/metadata';
import { customerCommand } from '../plumbing/customer-command';

/**
 * The customer's contact in the accounting organisation in use, for a document pushed there. A
 * customer without one there gets one on its first document: a customer copied into a sandbox (the
 * API document), or any after its organisation moved to another accounting organisation (the
 * accounting ids held before are not that one's). It is the contact whose number is the customer's
 * code, else one created from its name and code (not its email), keyed by the customer's id so a
 * retry makes no second one. Null for a customer without a code, which no contact can be found or
 * made for. Accounting refusals and outages reach the caller, which records them as it records a
 * failed push.
 */
export const contactOnFirstInvoice = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  organisation: OpenOrganisation,
  customer: Extract<CustomerState, { customerId: string }>,
): Promise<string | null> => {
  const accounting = organisation.accounting;
  if (accounting === null) return null;
  const held = contactIn(customer, accounting.tenantId);
  if (held !== null) return held;
  if (customer.code === null) return null;
  const ledger = deps.accounting.tenant(accounting.tenantId);
  const contact =
    (await ledger.findContactByNumber(customer.code)) ??
    (await ledger.createContact({ name: customer.name ?? customer.code, contactNumber: customer.code }, `contact-${customer.customerId}`));
  const linked = await customerCommand(deps, customer.customerId, { type: 'LinkContact', accountingContactId: contact.id, tenantId: accounting.tenantId }, caller, refOf(organisation));
  return linked.state.status === 'none' ? null : contactIn(linked.state, accounting.tenantId);
};
