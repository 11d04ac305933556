import type { SubscriptionCreatedData } from './events';
import type { ExistingSubscription } from './lifecycle';

/** Where a copied subscription lands in the sandbox: its ids there, and the sandbox generation. */
export type CopyTarget = Readonly<{
  subscriptionId: string;
  organisationId: string;
  resetGeneration: number;
  customerId: string;
  planId: string;
  /** The sandbox meter of each meter code. */
  meterIds: ReadonlyMap<string, string>;
}>;

/** What a sandbox copies of its live organisation's subscriptions: pending and active ones (not complete or ended). */
export const isCopied = (state: { status: string }): state is ExistingSubscription => state.status === 'pending' || state.status === 'active';

/**
 * A live subscription as the sandbox gets it: its terms as they stand now (units, period, prices,
 * meters, an end after a number of cycles), in the sandbox's customer, plan and meters. Its
 * invoices, credit notes and history are not copied: no first invoice, no one-off charges, no end
 * scheduled by ending it at period end.
 */
export const copiedSubscription = (live: ExistingSubscription, target: CopyTarget): SubscriptionCreatedData => {
  const { resetGeneration: _generation, ...subscription } = live.subscription;
  return {
    ...subscription,
    subscriptionId: target.subscriptionId,
    organisationId: target.organisationId,
    ...(target.resetGeneration > 0 ? { resetGeneration: target.resetGeneration } : {}),
    customerId: target.customerId,
    planId: target.planId,
    status: live.status === 'pending' ? 'pending' : 'active',
    units: live.life.units,
    meters: subscription.meters.map((meter) => ({ ...meter, meterId: target.meterIds.get(meter.meterCode) ?? meter.meterId })),
    firstInvoiceId: null,
    firstInvoiceCharges: [],
  };
};
