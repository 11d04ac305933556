import { planHasUnits } from '../catalogue/types';
import { startOfDate } from '../pricing/calendar';
import { type Money, parseMoney } from '../pricing/money';
import { discountOf, parsePercent } from '../pricing/percent';
import { planAmount, type PlanPricing } from '../pricing/pricing';
import type { ExistingSubscription } from '../subscription/lifecycle';
import type { LifecycleEvent } from '../subscription/lifecycle-events';
import { nextPeriod, renewalPricing } from '../subscription/schedule';
import type { InvoiceEvent, InvoiceLine } from './events';
import { invoiceTotal, netLine, subscriptionInvoice } from './first-invoice';
import { expansionLine } from './unit-change-invoice';

export type RenewalInvoiceInput = Readonly<{
  /** The subscription as it stood once the renewal invoice was recorded (its CPI prices included). */
  state: ExistingSubscription;
  raised: LifecycleEvent<'SubscriptionRenewalInvoiceRaised'>['data'];
  lineIds: (index: number) => string;
  now: string;
  paymentTermsDays: number;
}>;

/**
 * What a renewal line bills for one whole period at these units and prices: the plan's fee and the
 * subscription's discount on it (the line's amount and discount_amount; its charge_amount is their
 * difference). The MRR of a subscription is this, normalised to a month.
 */
export const wholePeriodFee = (pricing: PlanPricing, units: number, discountPercent: string): Readonly<{ fee: Money; discount: Money }> => {
  const fee = planAmount(pricing, units);
  return { fee, discount: discountOf(fee, parsePercent(discountPercent) ?? 0n) };
};

/** The renewal line of a period: the whole-period fee at these units and prices, revenue type `renewal`, effective from the renewal date. */
export const renewalLine = (state: ExistingSubscription, period: Readonly<{ start: string; end: string }>, units: number, lineId: string): InvoiceLine => {
  const { subscription } = state;
  const { pricing } = renewalPricing(state);
  const { fee, discount } = wholePeriodFee({ type: pricing.planType, price: pricing.price, freeUnits: pricing.freeUnits, tiers: pricing.tiers }, units, subscription.discountPercent);
  return netLine(
    {
      lineId,
      type: 'subscription',
      revenueType: 'renewal',
      meterId: null,
      usageQuantity: null,
      name: subscription.planName,
      description: `Period ${period.start} to ${period.end}`,
      units: planHasUnits(pricing.planType) ? units : null,
      effectiveDate: startOfDate(period.start, subscription.timezone),
    },
    fee,
    discount,
  );
};

/** The unit change an adjustment was recorded by. */
export const changeOf = (state: ExistingSubscription, changeId: string): LifecycleEvent<'SubscriptionUnitsChanged'>['data'] => {
  const event = state.life.operations[changeId];
  if (event?.type !== 'SubscriptionUnitsChanged') throw new Error(`no unit change ${changeId}`);
  return event.data;
};

/**
 * The renewal invoice for the period from the renewal date, from the facts recorded with it alone
 * (so a retry after a crash raises the same invoice): the whole-period fee at the units of that
 * moment and the prices of the period (CPI included), then one line per `charge_on_renewal`
 * adjustment it bills, each net of the subscription's discount.
 */
export const renewalInvoice = (input: RenewalInvoiceInput): InvoiceEvent<'InvoiceRaised'>['data'] => {
  const { state, raised } = input;
  const { subscription } = state;
  const period = { start: raised.periodStart, end: raised.periodEnd ?? subscription.renewalDate };
  const lines = [
    renewalLine(state, period, raised.units ?? state.life.units, input.lineIds(0)),
    ...(raised.adjustments ?? []).map((adjustment, i) => expansionLine(subscription, changeOf(state, adjustment.changeId), parseMoney(adjustment.amount), input.lineIds(i + 1))),
  ];
  return subscriptionInvoice(subscription, raised.invoiceId, input.now, input.paymentTermsDays, lines);
};

/** The line that bills the next period's fee: an amendment rewrites it, and keeps the others. */
export const isRenewalLine = (line: InvoiceLine): boolean => line.revenueType === 'renewal' && line.type === 'subscription';

/**
 * `document: amend`: the renewal invoice rewritten for a unit change made after it was raised. Its
 * renewal line bills the next period at the new units (at the prices it was raised with), and a
 * prorated increase for the rest of this period is added as an `expansion` line (a decrease is a
 * credit note of its own, never a line here). Other lines stay as they were.
 */
export const amendedRenewalLines = (
  invoice: InvoiceEvent<'InvoiceRaised'>['data'],
  state: ExistingSubscription,
  change: LifecycleEvent<'SubscriptionUnitsChanged'>['data'],
  newLineId: string,
): { lines: InvoiceLine[]; subtotal: string } => {
  const lines = invoice.lines.map((line) =>
    isRenewalLine(line) ? renewalLine(state, nextPeriod(state), change.units, line.lineId) : line,
  );
  if (change.renewalAdjustment !== null) lines.push(expansionLine(state.subscription, change, parseMoney(change.renewalAdjustment), newLineId));
  return { lines, subtotal: invoiceTotal(lines) };
};

