import { parseMoney } from '../pricing/money';
import type { ExistingSubscription } from '../subscription/lifecycle';
import type { CarriedCharges } from '../subscription/lifecycle-events';
import type { InvoiceEvent } from './events';
import { subscriptionInvoice } from './first-invoice';
import { changeOf, isRenewalLine } from './renewal-invoice';
import { expansionLine } from './unit-change-invoice';

/**
 * The invoice an end keeps the current period's charges billed on (ending does not credit the
 * current period): the lines of the renewal invoice it removed besides its renewal line, as they
 * were, and an `expansion` line for each `charge_on_renewal` adjustment no renewal invoice will bill
 * now; under new ids, dated now.
 */
export const carriedChargesInvoice = (
  input: Readonly<{
    state: ExistingSubscription;
    carried: NonNullable<CarriedCharges>;
    removed: InvoiceEvent<'InvoiceRaised'>['data'] | null;
    lineIds: (index: number) => string;
    now: string;
    paymentTermsDays: number;
  }>,
): InvoiceEvent<'InvoiceRaised'>['data'] => {
  const { state, carried } = input;
  const kept = (input.removed?.lines ?? []).filter((line) => !isRenewalLine(line));
  const lines = [
    ...kept.map((line, i) => ({ ...line, lineId: input.lineIds(i) })),
    ...carried.adjustments.map((adjustment, i) =>
      expansionLine(state.subscription, changeOf(state, adjustment.changeId), parseMoney(adjustment.amount), input.lineIds(kept.length + i)),
    ),
  ];
  return subscriptionInvoice(state.subscription, carried.invoiceId, input.now, input.paymentTermsDays, lines);
};
