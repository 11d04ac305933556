import { startOfDate } from '../pricing/calendar';
import type { SubscriptionCreatedData } from '../subscription/events';
import type { InvoiceEvent, InvoiceLine } from './events';
import { subscriptionInvoice } from './first-invoice';

/**
 * The lines of an invoice besides the renewal invoice that bill the subscription's next period: those
 * effective from its renewal date (a `separate` increase's next-period line, every line of a
 * restore's re-billing).
 */
export const nextPeriodLines = (subscription: SubscriptionCreatedData, invoice: InvoiceEvent<'InvoiceRaised'>['data']): InvoiceLine[] => {
  const from = startOfDate(subscription.renewalDate, subscription.timezone);
  return invoice.lines.filter((line) => line.effectiveDate === from);
};

/**
 * A restore bills again the next period's lines its end credited: the same lines (amounts, discounts,
 * descriptions) under new ids, on one invoice dated now.
 */
export const reBilledNextPeriodInvoice = (input: {
  subscription: SubscriptionCreatedData;
  credited: readonly InvoiceEvent<'InvoiceRaised'>['data'][];
  invoiceId: string;
  lineIds: (index: number) => string;
  now: string;
  paymentTermsDays: number;
}): InvoiceEvent<'InvoiceRaised'>['data'] => {
  const lines = input.credited.flatMap((invoice) => nextPeriodLines(input.subscription, invoice)).map((line, i) => ({ ...line, lineId: input.lineIds(i) }));
  return subscriptionInvoice(input.subscription, input.invoiceId, input.now, input.paymentTermsDays, lines);
};
