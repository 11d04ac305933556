import { DUE_DATES, dueDatesProjection } from '../../projections/read-models/due-dates';
import { SUBSCRIPTIONS, subscriptionsProjection } from '../../projections/read-models/subscriptions';
import { projectionSpec } from '../support/projection-spec';
import { londonSubscription, londonSubscriptionDocument } from '../support/subscription-fixtures';

// londonSubscription: monthly from 1 Jan 2026, renewal date 1 Feb 2026.
const base = { id: 'sub_1', _organisation: 'org_1', start_date: '2026-01-01', end_date: null, metered: false };

describe('due dates read model: given subscription events, then the next due date per step kind', () => {
  it('a new subscription: renewal invoice and renewal at its renewal date (the lead days are the scheduler’s)', async () => {
    await projectionSpec(dueDatesProjection)
      .given([{ type: 'SubscriptionCreated', data: londonSubscription }])
      .then(DUE_DATES, [
        {
          ...base,
          status: 'active',
          renewal_date: '2026-02-01',
          renewal_invoice_raised: false,
          due: { start: null, renewal_invoice: '2026-02-01', renewal: '2026-02-01', complete: null },
          next_due: '2026-02-01',
        },
      ]);
  });

  it('a pending one starts first; raised, renewed and set to end, it moves on to its completion', async () => {
    const pending = { ...londonSubscription, status: 'pending' as const };
    await projectionSpec(dueDatesProjection)
      .given([
        { type: 'SubscriptionCreated', data: pending },
        { type: 'SubscriptionStarted', data: { subscriptionId: 'sub_1', startDate: '2026-01-01' } },
        { type: 'SubscriptionRenewalInvoiceRaised', data: { subscriptionId: 'sub_1', invoiceId: 'inv_r1', periodStart: '2026-02-01' } },
        { type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1', periodStart: '2026-02-01', renewalDate: '2026-03-01' } },
        { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'e1', endDate: '2026-03-01', removals: [] } },
      ])
      .then(DUE_DATES, [
        {
          ...base,
          status: 'active',
          renewal_date: '2026-03-01',
          end_date: '2026-03-01',
          renewal_invoice_raised: false,
          due: { start: null, renewal_invoice: null, renewal: null, complete: '2026-03-01' },
          next_due: '2026-03-01',
        },
      ]);
  });

  it('a completed subscription has nothing due; the subscriptions read model shows it complete', async () => {
    const events = [
      { type: 'SubscriptionCreated', data: londonSubscription },
      { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'e1', endDate: '2026-02-01', removals: [] } },
      { type: 'SubscriptionCompleted', data: { subscriptionId: 'sub_1', endDate: '2026-02-01' } },
    ];
    await projectionSpec(dueDatesProjection)
      .given(events)
      .then(DUE_DATES, [
        {
          ...base,
          status: 'complete',
          renewal_date: '2026-02-01',
          end_date: '2026-02-01',
          renewal_invoice_raised: false,
          due: { start: null, renewal_invoice: null, renewal: null, complete: null },
          next_due: null,
        },
      ]);
    await projectionSpec(subscriptionsProjection)
      .given(events)
      .then(SUBSCRIPTIONS, [{ ...londonSubscriptionDocument, status: 'complete', renewal_date: null, end_date: '2026-02-01', cancel_at_period_end: false }]);
  });
});
