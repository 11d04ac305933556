import { startOfDate } from '../pricing/calendar';
import { type Money, parseMoney } from '../pricing/money';
import { discountOf, parsePercent } from '../pricing/percent';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { SubscriptionUnitsChangedData } from '../subscription/lifecycle-events';
import type { InvoiceLine, InvoiceRaised } from './events';
import { netLine, subscriptionInvoice } from './first-invoice';

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

/** A prorated increase as an invoice line: revenue type `expansion`, from the change's effective date, net of the subscription's discount. */
export const expansionLine = (subscription: SubscriptionCreatedData, change: SubscriptionUnitsChangedData, amount: Money, lineId: string): InvoiceLine =>
  netLine(
    {
      lineId,
      type: 'subscription',
      revenueType: 'expansion',
      meterId: null,
      usageQuantity: null,
      name: subscription.planName,
      description: prorationDescription(change),
      units: change.units,
      effectiveDate: startOfDate(change.effectiveDate ?? change.periodStart, subscription.timezone),
    },
    amount,
    discountOf(amount, parsePercent(subscription.discountPercent) ?? 0n),
  );

/**
 * The invoice a prorated increase raises at once (charge_immediately): one `subscription` line of
 * revenue type `expansion` for the prorated difference, net of the subscription's discount. Built from
 * the change's facts alone, so a retry after a crash raises the same invoice.
 */
export const unitChangeInvoice = (input: ChangeDocumentInput): InvoiceRaised['data'] => {
  const { subscription, change } = input;
  const line = expansionLine(subscription, change, parseMoney(change.proration!.amount), input.lineId);
  return subscriptionInvoice(subscription, change.invoiceId!, change.changedAt, input.paymentTermsDays, [line]);
};
