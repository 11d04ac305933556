import type { InvoiceLine } from '../../domain/invoice/events';
import type { AccountingConnection } from '../../domain/organisation/state';
import type { LineInput } from '../../infra/accounting/port';

/** What an accounting line is made from: an invoice's line, or a credit note's as one unit of its amount. */
export type DocumentLine = Pick<InvoiceLine, 'name' | 'description' | 'quantity' | 'unitAmount' | 'account'>;

/** A document's lines as the accounting system takes them: `usage` lines to the usage revenue account, the rest to revenue. */
export const accountingLines = (lines: readonly DocumentLine[], accounting: AccountingConnection): LineInput[] =>
  lines.map((line) => ({
    description: [line.name, line.description].filter(Boolean).join(' — '),
    quantity: line.quantity,
    unitAmount: line.unitAmount,
    accountCode: (line.account === 'usage_revenue' ? accounting.usageRevenueAccount : accounting.revenueAccount) ?? '',
  }));
