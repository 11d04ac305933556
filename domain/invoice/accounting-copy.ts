import type { AccountingConnection } from '../organisation/state';

/**
 * Where the accounting system holds an invoice, as the service's own records say: nowhere (never
 * pushed), in the accounting organisation the organisation uses, in one it has since moved away from
 * or disconnected (the one in use holds no such invoice, so nothing about it is asked of it), or
 * unrecorded: pushed before the accounting organisation was kept with the push, so only asking tells.
 */
export type AccountingCopy = 'not_pushed' | 'in_use' | 'elsewhere' | 'unrecorded';

export const accountingCopy = (
  invoice: Readonly<{ accountingInvoiceId?: string; accountingTenantId?: string }>,
  accounting: AccountingConnection | null,
): AccountingCopy => {
  if (invoice.accountingInvoiceId === undefined) return 'not_pushed';
  if (accounting === null) return 'elsewhere';
  if (invoice.accountingTenantId === undefined) return 'unrecorded';
  return invoice.accountingTenantId === accounting.tenantId ? 'in_use' : 'elsewhere';
};
