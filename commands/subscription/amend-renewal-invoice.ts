import { accountingCopy } from '../../domain/invoice/accounting-copy';
import { amendedRenewalLines } from '../../domain/invoice/renewal-invoice';
import type { OpenOrganisation } from '../../domain/organisation/state';
import type { ExistingSubscription } from '../../domain/subscription/lifecycle';
import type { SubscriptionUnitsChangedData } from '../../domain/subscription/lifecycle-events';
import { AccountingRefused, type AccountingSystem } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { documentNotAvailable } from '../../domain/subscription/change-units';
import type { CommandDeps } from '../plumbing/deps';
import { type Caller, refOf } from '../plumbing/metadata';
import { invoiceCommand } from '../plumbing/invoice-command';
import { accountingLines } from '../accounting/accounting-lines';

/**
 * `document: amend`: rewrites the renewal invoice's lines for the change (the next period at the new
 * units, plus its prorated increase), in the accounting system first when the invoice is there (a
 * draft still), then on the invoice. A retry after a crash writes the same lines again and records
 * the amendment once.
 */
export const amendRenewalInvoice = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  org: OpenOrganisation,
  state: ExistingSubscription,
  change: SubscriptionUnitsChangedData,
  invoiceId: string,
) => {
  const { state: invoice } = await invoiceCommand.load(deps.store, invoiceId);
  if (invoice.status !== 'raised') return { position: 0n };
  const { lines, subtotal } = amendedRenewalLines(invoice.invoice, state, change, derivedId('invoiceLine', invoiceId, change.changeId));
  let total: string | null = null;
  // One never pushed is changed here alone (its push sends the amended lines).
  const copy = accountingCopy(invoice, org.accounting);
  if ((copy === 'in_use' || copy === 'unrecorded') && invoice.accountingInvoiceId && org.accounting) {
    try {
      total = (await deps.accounting.tenant(org.accounting.tenantId).updateInvoiceLines(invoice.accountingInvoiceId, accountingLines(lines, org.accounting))).total;
    } catch (error) {
      if (error instanceof AccountingRefused) throw documentNotAvailable(`The accounting system refused to change the renewal invoice: ${error.message} Send document: separate.`);
      throw error;
    }
  }
  return invoiceCommand(deps, invoiceId, { type: 'AmendInvoiceLines', invoiceId, changeId: change.changeId, lines, subtotal, total }, caller, refOf(org));
};
