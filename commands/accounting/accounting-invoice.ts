import { accountingCopy } from '../../domain/invoice/accounting-copy';
import type { InvoiceState } from '../../domain/invoice/decider';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { type AccountingInvoice, AccountingRefused, type AccountingSystem } from '../../infra/accounting/port';

/**
 * A raised invoice as the accounting organisation in use holds it, asked only where the service's
 * records say that one holds it (`accountingCopy`); null where they say it does not. One pushed before
 * the accounting organisation was recorded with its push is asked for, and a refusal read as held
 * by one the organisation has since moved away from.
 */
export const accountingInvoice = async (
  deps: Readonly<{ accounting: AccountingSystem }>,
  org: OpenOrganisation,
  invoice: Extract<InvoiceState, { status: 'raised' }>,
): Promise<AccountingInvoice | null> => {
  const copy = accountingCopy(invoice, org.accounting);
  if ((copy !== 'in_use' && copy !== 'unrecorded') || !org.accounting || !invoice.accountingInvoiceId) return null;
  const asked = deps.accounting.tenant(org.accounting.tenantId).getInvoice(invoice.accountingInvoiceId);
  if (copy === 'in_use') return asked;
  return asked.catch((error: unknown) => {
    if (error instanceof AccountingRefused) return null;
    throw error;
  });
};
