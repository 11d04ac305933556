import type { LifecycleEvent } from './lifecycle-events';
import { type ExistingSubscription, invalidState } from './lifecycle';
import { nextPeriod } from './schedule';

export type RestoreSubscription = Readonly<{
  type: 'RestoreSubscription';
  operationId: string;
  organisationId: string;
  resetGeneration: number;
  today: string;
  customerStatus: 'active' | 'inactive' | null;
  planStatus: 'draft' | 'active' | 'inactive' | 'legacy' | null;
  /** The id a renewal invoice removed by ending is raised again under. */
  reRaisedInvoiceId: string;
  /** The id the next period's lines an end credited are billed again under. */
  nextPeriodInvoiceId: string;
}>;

/**
 * `POST /v1/subscriptions/{id}/restore`: an ended subscription before its renewal date (customer
 * active, plan active or legacy) returns to active with its renewal date unchanged (pending before its
 * start date); one set to end at period end renews again. Restoring clears `end_date` and
 * `cancel_at_period_end`, raises again a renewal invoice that ending removed: afresh, at the units of
 * now with the charges left for it since, as the scheduler raises one (once ends kept the current
 * period's charges), else its lines again, billing again the next period's lines that ending credited.
 */
export const decideRestore = (command: RestoreSubscription, state: ExistingSubscription): LifecycleEvent<'SubscriptionRestored'> => {
  const { subscription, life } = state;
  let from: LifecycleEvent<'SubscriptionRestored'>['data']['from'];
  if (state.status === 'ended') {
    if (command.today >= subscription.renewalDate) throw invalidState(`The renewal date ${subscription.renewalDate} has passed.`);
    if (command.customerStatus !== 'active') throw invalidState('The customer is not active.');
    if (command.planStatus !== 'active' && command.planStatus !== 'legacy') throw invalidState('The plan is neither active nor legacy.');
    from = 'ended';
  } else if (state.status !== 'complete' && life.cancelAtPeriodEnd) {
    from = 'cancel_at_period_end';
  } else {
    throw invalidState(state.status === 'complete' ? 'The subscription has completed.' : 'The subscription is not ended nor set to end.');
  }
  // Raised afresh (the end kept its charges): the next period whole at the units of now, which a
  // change since the end (one set to end at period end still changes) may have moved.
  const fresh = life.removedRenewalInvoiceId !== null && life.removedRenewalInvoiceFresh;
  const next = nextPeriod(state);
  return {
    type: 'SubscriptionRestored',
    data: {
      subscriptionId: subscription.subscriptionId,
      operationId: command.operationId,
      from,
      status: command.today < subscription.startDate ? 'pending' : 'active',
      renewalInvoiceId: life.removedRenewalInvoiceId ? command.reRaisedInvoiceId : null,
      replacesInvoiceId: life.removedRenewalInvoiceId,
      ...(fresh
        ? { nextPeriodInvoice: null, renewal: { periodStart: next.start, periodEnd: next.end, units: life.units, adjustments: [...life.renewalAdjustments] } }
        : { nextPeriodInvoice: life.nextPeriodCredits.length > 0 ? { invoiceId: command.nextPeriodInvoiceId, rebills: [...life.nextPeriodCredits] } : null }),
    },
  };
};
