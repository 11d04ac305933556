import { startOfDate } from '../pricing/calendar';
import { formatMoney, parseMoney } from '../pricing/money';
import { netOfDiscount, parsePercent } from '../pricing/percent';
import { type ChangeDocumentInput, prorationDescription } from '../invoice/unit-change-invoice';
import type { CreditNoteRaisedData } from './events';

/**
 * The credit note a prorated decrease (or a volume or stairstep move into a cheaper band) raises: the
 * prorated difference as a positive amount net of discount, to be allocated to the invoice that billed
 * the period (`reduces`).
 */
export const unitChangeCreditNote = (input: ChangeDocumentInput & { reduces: string | null }): CreditNoteRaisedData => {
  const { subscription, change } = input;
  const credit = netOfDiscount(-parseMoney(change.proration!.amount), parsePercent(subscription.discountPercent) ?? 0n);
  return {
    creditNoteId: change.creditNoteId!,
    organisationId: subscription.organisationId,
    customerId: subscription.customerId,
    subscriptionId: subscription.subscriptionId,
    invoiceId: input.reduces,
    currency: subscription.currency,
    reference: subscription.invoiceReference,
    creditNoteDate: change.changedAt,
    lines: [
      {
        lineId: input.lineId,
        name: subscription.planName,
        description: prorationDescription(change),
        amount: formatMoney(credit),
        effectiveDate: startOfDate(change.effectiveDate!, subscription.timezone),
      },
    ],
    subtotal: formatMoney(credit),
  };
};
