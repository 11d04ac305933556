import { addDaysToInstant, startOfDate } from '../pricing/calendar';
import { formatMoney, parseMoney } from '../pricing/money';
import { discountOf, parsePercent } from '../pricing/percent';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { SubscriptionUnitsChangedData } from '../subscription/lifecycle-events';
import type { InvoiceRaised } from './events';
import { netLine } from './first-invoice';

export type ChangeDocumentInput = Readonly<{
  subscription: SubscriptionCreatedData;
  change: SubscriptionUnitsChangedData;
  lineId: string;
  paymentTermsDays: number;
}>;

/** How a prorated change describes itself on its document: the units and the days it covers. */
export const prorationDescription = (change: SubscriptionUnitsChangedData): string =>
  `${change.previousUnits} → ${change.units} units from ${change.effectiveDate} to ${change.renewalDate} ` +
  `(${change.proration?.daysLeft}/${change.proration?.daysInPeriod} days)`;

/**
 * The invoice a prorated increase raises at once (charge_immediately): one `subscription` line of
 * revenue type `expansion` for the prorated difference, net of the subscription's discount. Built from
 * the change's facts alone, so a retry after a crash raises the same invoice.
 */
export const unitChangeInvoice = (input: ChangeDocumentInput): InvoiceRaised['data'] => {
  const { subscription, change } = input;
  const amount = parseMoney(change.proration!.amount);
  const discount = discountOf(amount, parsePercent(subscription.discountPercent) ?? 0n);
  const line = netLine(
    {
      lineId: input.lineId,
      type: 'subscription',
      revenueType: 'expansion',
      meterId: null,
      usageQuantity: null,
      name: subscription.planName,
      description: prorationDescription(change),
      units: change.units,
      effectiveDate: startOfDate(change.effectiveDate!, subscription.timezone),
    },
    amount,
    discount,
  );
  return {
    invoiceId: change.invoiceId!,
    organisationId: subscription.organisationId,
    customerId: subscription.customerId,
    subscriptionId: subscription.subscriptionId,
    currency: subscription.currency,
    reference: subscription.invoiceReference,
    invoiceDate: change.changedAt,
    dueDate: addDaysToInstant(change.changedAt, input.paymentTermsDays),
    lines: [line],
    subtotal: formatMoney(parseMoney(line.chargeAmount)),
  };
};
