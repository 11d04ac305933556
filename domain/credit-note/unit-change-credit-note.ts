import { startOfDate } from '../pricing/calendar';
import { formatMoney, parseMoney } from '../pricing/money';
import { netOfDiscount, parsePercent } from '../pricing/percent';
import { type ChangeDocumentInput, changeParts, nextPeriodDescription, prorationDescription } from '../invoice/unit-change-invoice';
import type { CreditNoteRaisedData } from './events';

/**
 * The credit note a decrease (or a volume or stairstep move into a cheaper band) raises: the prorated
 * difference for the rest of this period, and with `document: separate` once the renewal invoice
 * exists the next period's whole-period difference (effective from the renewal date), each a positive
 * amount net of discount, to be allocated to the invoice it reduces (`reduces`).
 */
export const unitChangeCreditNote = (input: ChangeDocumentInput & { reduces: string | null }): CreditNoteRaisedData => {
  const { subscription, change } = input;
  const discount = parsePercent(subscription.discountPercent) ?? 0n;
  const { prorated, nextPeriod } = changeParts(change);
  const parts = [
    { amount: prorated, description: prorationDescription(change), from: change.effectiveDate ?? change.periodStart },
    { amount: nextPeriod, description: nextPeriodDescription(change), from: change.renewalDate },
  ].filter((part) => part.amount < 0n);
  const lines = parts.map((part, i) => ({
    lineId: input.lineIds(i),
    name: subscription.planName,
    description: part.description,
    amount: formatMoney(netOfDiscount(-part.amount, discount)),
    effectiveDate: startOfDate(part.from, subscription.timezone),
  }));
  return {
    creditNoteId: change.creditNoteId!,
    organisationId: subscription.organisationId,
    customerId: subscription.customerId,
    subscriptionId: subscription.subscriptionId,
    invoiceId: input.reduces,
    currency: subscription.currency,
    reference: subscription.invoiceReference,
    creditNoteDate: change.changedAt,
    lines,
    subtotal: formatMoney(lines.reduce((sum, line) => sum + parseMoney(line.amount), 0n)),
  };
};
