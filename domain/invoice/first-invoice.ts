import { planHasUnits } from '../catalogue/types';
import { addDaysToInstant, startOfDate } from '../pricing/calendar';
import { formatMoney, type Money, parseMoney, sum } from '../pricing/money';
import { discountOf, netOf, parsePercent } from '../pricing/percent';
import { planAmount } from '../pricing/pricing';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { InvoiceEvent, InvoiceLine } from './events';

export type FirstInvoiceInput = Readonly<{
  subscription: SubscriptionCreatedData;
  lineIds: readonly string[];
  now: string;
  paymentTermsDays: number;
}>;

/** An invoice line priced net of its discount, carried to the accounting system as quantity 1 at the net amount. */
export const netLine = (
  fields: Omit<InvoiceLine, 'amount' | 'discountAmount' | 'chargeAmount' | 'quantity' | 'unitAmount' | 'account'>,
  amount: Money,
  discount: Money,
): InvoiceLine => ({
  ...fields,
  amount: formatMoney(amount),
  discountAmount: formatMoney(discount),
  chargeAmount: formatMoney(netOf(amount, discount)),
  // The accounting line carries the net amount once, so its total is exact whatever its rounding.
  quantity: '1',
  unitAmount: formatMoney(netOf(amount, discount)),
  account: 'revenue',
});

/**
 * The first invoice of a new subscription, from the facts of its creation alone (so a retry after a
 * crash can raise it again): its first period's recurring fee, and the one-off
 * charges (discounted only where `apply_discount` is true), all revenue type `new_subscription`.
 */
export const firstInvoice = (input: FirstInvoiceInput): InvoiceEvent<'InvoiceRaised'>['data'] => {
  const { subscription } = input;
  const percent = parsePercent(subscription.discountPercent) ?? 0n;
  const fee = planAmount(
    { type: subscription.pricing.planType, price: subscription.pricing.price, freeUnits: subscription.pricing.freeUnits, tiers: subscription.pricing.tiers },
    subscription.units,
  );
  const periodStartDate = subscription.currentPeriodStart;
  const lines: InvoiceLine[] = [
    netLine(
      {
        lineId: input.lineIds[0]!,
        type: 'subscription',
        revenueType: 'new_subscription',
        meterId: null,
        usageQuantity: null,
        name: subscription.planName,
        description: `Period ${periodStartDate} to ${subscription.renewalDate}`,
        units: planHasUnits(subscription.pricing.planType) ? subscription.units : null,
        effectiveDate: startOfDate(periodStartDate, subscription.timezone),
      },
      fee,
      discountOf(fee, percent),
    ),
    ...subscription.firstInvoiceCharges.map((charge, i) => {
      const amount = parseMoney(charge.price) * BigInt(charge.quantity);
      return netLine(
        {
          lineId: input.lineIds[i + 1]!,
          type: 'charge',
          revenueType: 'new_subscription',
          meterId: null,
          usageQuantity: null,
          name: charge.quantity > 1 ? `${charge.name} × ${charge.quantity}` : charge.name,
          description: charge.description,
          units: null,
          effectiveDate: startOfDate(periodStartDate, subscription.timezone),
        },
        amount,
        charge.applyDiscount ? discountOf(amount, percent) : 0n,
      );
    }),
  ];
  return subscriptionInvoice(subscription, subscription.firstInvoiceId!, input.now, input.paymentTermsDays, lines);
};

/** An invoice of a subscription: its customer, currency and reference, dated now, due after the payment terms, totalling its lines. */
export const subscriptionInvoice = (
  subscription: SubscriptionCreatedData,
  invoiceId: string,
  now: string,
  paymentTermsDays: number,
  lines: InvoiceLine[],
): InvoiceEvent<'InvoiceRaised'>['data'] => ({
  invoiceId,
  organisationId: subscription.organisationId,
  customerId: subscription.customerId,
  subscriptionId: subscription.subscriptionId,
  currency: subscription.currency,
  reference: subscription.invoiceReference,
  invoiceDate: now,
  dueDate: addDaysToInstant(now, paymentTermsDays),
  lines,
  subtotal: invoiceTotal(lines),
});

/** What an invoice's lines add up to, net of their discounts. */
export const invoiceTotal = (lines: readonly InvoiceLine[]): string => formatMoney(sum(lines.map((l) => parseMoney(l.chargeAmount))));
