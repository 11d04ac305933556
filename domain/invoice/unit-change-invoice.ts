import { startOfDate } from '../pricing/calendar';
import { type Money, parseMoney } from '../pricing/money';
import { discountOf, parsePercent } from '../pricing/percent';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { SubscriptionUnitsChangedData } from '../subscription/lifecycle-events';
import type { InvoiceEvent, InvoiceLine } from './events';
import { netLine, subscriptionInvoice } from './first-invoice';

export type ChangeDocumentInput = Readonly<{
  subscription: SubscriptionCreatedData;
  change: SubscriptionUnitsChangedData;
  /** The id of the document's line at each position, derived from the document's id. */
  lineIds: (index: number) => string;
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

/** How the next period's difference describes itself on a `separate` document. */
export const nextPeriodDescription = (change: SubscriptionUnitsChangedData): string =>
  `${change.nextPeriod?.billedUnits} → ${change.units} units for the period ${change.nextPeriod?.start} to ${change.nextPeriod?.end}`;

/** The signed amounts a `separate` or immediate document bills: this period's prorated part (unless deferred) and the next period's difference. */
export const changeParts = (change: SubscriptionUnitsChangedData): { prorated: Money; nextPeriod: Money } => ({
  prorated: change.proration && change.renewalAdjustment === null ? parseMoney(change.proration.amount) : 0n,
  nextPeriod: change.nextPeriod ? parseMoney(change.nextPeriod.amount) : 0n,
});

/**
 * The invoice a unit change raises at once: a `subscription` line of revenue type `expansion` for the
 * prorated increase (charge_immediately), and with `document: separate` once the renewal invoice
 * exists, one for the next period's whole-period increase, effective from the renewal date; each net
 * of the subscription's discount. Built from the change's facts alone, so a retry after a crash
 * raises the same invoice.
 */
export const unitChangeInvoice = (input: ChangeDocumentInput): InvoiceEvent<'InvoiceRaised'>['data'] => {
  const { subscription, change } = input;
  const { prorated, nextPeriod } = changeParts(change);
  const lines: InvoiceLine[] = [];
  if (prorated > 0n) lines.push(expansionLine(subscription, change, prorated, input.lineIds(lines.length)));
  if (nextPeriod > 0n) {
    const line = expansionLine(subscription, change, nextPeriod, input.lineIds(lines.length));
    lines.push({ ...line, description: nextPeriodDescription(change), effectiveDate: startOfDate(change.renewalDate, subscription.timezone) });
  }
  return subscriptionInvoice(subscription, change.invoiceId!, change.changedAt, input.paymentTermsDays, lines);
};
