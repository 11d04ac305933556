import { formatMoney, parseMoney } from '../pricing/money';
import type { InvoiceEvent } from '../invoice/events';
import { nextPeriodLines } from '../invoice/next-period-invoice';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { CreditNoteRaisedData } from './events';

/**
 * Ending a subscription whose next period another invoice already billed part of (a `separate`
 * increase): a credit note for that invoice's next-period lines, net of discount as they were
 * billed, allocated to it. The current period is not credited.
 */
export const nextPeriodCreditNote = (input: {
  subscription: SubscriptionCreatedData;
  invoice: InvoiceEvent<'InvoiceRaised'>['data'];
  creditNoteId: string;
  lineIds: (index: number) => string;
  now: string;
}): CreditNoteRaisedData => {
  const { subscription, invoice } = input;
  const lines = nextPeriodLines(subscription, invoice).map((line, i) => ({
    lineId: input.lineIds(i),
    name: line.name ?? subscription.planName,
    description: `Subscription ended: ${line.description ?? 'the next period'}`,
    amount: line.chargeAmount,
    effectiveDate: line.effectiveDate!,
  }));
  if (lines.length === 0) throw new Error(`invoice ${invoice.invoiceId} bills nothing of the next period`);
  return {
    creditNoteId: input.creditNoteId,
    organisationId: subscription.organisationId,
    customerId: subscription.customerId,
    subscriptionId: subscription.subscriptionId,
    invoiceId: invoice.invoiceId,
    currency: subscription.currency,
    reference: subscription.invoiceReference,
    creditNoteDate: input.now,
    lines,
    subtotal: formatMoney(lines.reduce((sum, line) => sum + parseMoney(line.amount), 0n)),
  };
};
