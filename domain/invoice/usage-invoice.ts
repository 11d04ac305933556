import { addDaysToInstant, startOfDate } from '../pricing/calendar';
import { formatMoney, type Money, parseMoney, sum } from '../pricing/money';
import { discountOf, parsePercent } from '../pricing/percent';
import type { MeterPricing } from '../pricing/pricing';
import { formatQuantity, storedTotal } from '../pricing/quantity';
import { type UsageCharge, usageCharge } from '../pricing/usage-charge';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { UsagePeriodBilledData } from '../usage/events';
import type { InvoiceEvent, InvoiceLine } from './events';
import { netLine } from './first-invoice';

type SubscriptionMeter = SubscriptionCreatedData['meters'][number];

export const meterPricing = (meter: SubscriptionMeter): MeterPricing => ({
  model: meter.model,
  price: meter.price,
  includedUnits: meter.includedUnits,
  minimumUnits: meter.minimumUnits,
  tiers: meter.tiers,
});

/** A billed meter of a period: one whose billed quantity (reported, or its minimum) is above zero. */
export type MeterBill = Readonly<{ meter: SubscriptionMeter; reported: string; charge: UsageCharge }>;

/**
 * The meters a billed period bills, in the subscription's order, at the subscription's meter prices:
 * one per meter that reported usage or has a minimum. A meter with neither bills no line.
 */
export const meterBills = (meters: readonly SubscriptionMeter[], billed: Pick<UsagePeriodBilledData, 'meters'>): MeterBill[] =>
  meters.flatMap((meter) => {
    const reported = billed.meters.find((m) => m.meterId === meter.meterId)?.quantity ?? '0.0000';
    const quantity = storedTotal(reported);
    const charge = usageCharge(meterPricing(meter), quantity);
    return charge.billed > 0n ? [{ meter, reported: formatQuantity(quantity), charge }] : [];
  });

/** Whether the bills come to anything before discount: a period that bills nothing raises no invoice. */
export const billsAnything = (bills: readonly MeterBill[]): boolean => bills.some((bill) => bill.charge.amount > 0n);

/** How a usage line explains its quantity: what was reported, and the minimum or included units that changed it. */
const usageDescription = (bill: MeterBill, period: Pick<UsagePeriodBilledData, 'periodStart' | 'periodEnd'>): string => {
  const notes = [`${bill.reported} reported`];
  if (bill.charge.billed > storedTotal(bill.reported)) notes.push(`minimum ${bill.meter.minimumUnits}`);
  if (bill.meter.model === 'per_unit' && (bill.meter.includedUnits ?? 0) > 0) notes.push(`${bill.meter.includedUnits} included`);
  return `Usage ${period.periodStart} to ${period.periodEnd}: ${notes.join(', ')}`;
};

export type UsageInvoiceInput = Readonly<{
  subscription: SubscriptionCreatedData;
  billed: UsagePeriodBilledData;
  /** The derived id of each meter's line. */
  lineIdOf: (meterId: string) => string;
  paymentTermsDays: number;
}>;

/**
 * The usage invoice of one billed period, from its billing event alone (so a retry after a crash
 * raises the same one): one `usage` line per billed meter, revenue type `usage`, to the usage revenue
 * account, each net of the subscription's discount; dated when the period was billed.
 */
export const usageInvoice = (input: UsageInvoiceInput): InvoiceEvent<'InvoiceRaised'>['data'] => {
  const { subscription, billed } = input;
  const percent = parsePercent(subscription.discountPercent) ?? 0n;
  const lines: InvoiceLine[] = meterBills(subscription.meters, billed).map((bill) => ({
    ...netLine(
      {
        lineId: input.lineIdOf(bill.meter.meterId),
        type: 'usage',
        revenueType: 'usage',
        meterId: bill.meter.meterId,
        usageQuantity: formatQuantity(bill.charge.priced),
        name: bill.meter.name,
        description: usageDescription(bill, billed),
        units: Number(bill.charge.units),
        effectiveDate: startOfDate(billed.periodStart, subscription.timezone),
      },
      bill.charge.amount,
      discountOf(bill.charge.amount, percent),
    ),
    account: 'usage_revenue',
  }));
  const charged: Money[] = lines.map((line) => parseMoney(line.chargeAmount));
  return {
    invoiceId: billed.invoiceId!,
    organisationId: subscription.organisationId,
    customerId: subscription.customerId,
    subscriptionId: subscription.subscriptionId,
    currency: subscription.currency,
    reference: subscription.invoiceReference,
    invoiceDate: billed.billedAt,
    dueDate: addDaysToInstant(billed.billedAt, input.paymentTermsDays),
    lines,
    subtotal: formatMoney(sum(charged)),
  };
};
