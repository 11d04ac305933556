import type { Decider } from '../shared/decider';
import { type CreateSubscription, decideCreation } from './create';
import type { SubscriptionCreatedData, SubscriptionEvent } from './events';

export type SubscriptionState = { status: 'none' } | { status: 'pending' | 'active'; subscription: SubscriptionCreatedData };

export type SubscriptionCommand = CreateSubscription;

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: event.data.status, subscription: event.data }),
  decide: (command, state) => {
    // The id derives from the API key and the Idempotency-Key: a retry finds the subscription made.
    if (state.status !== 'none') return [];
    return [{ type: 'SubscriptionCreated', data: decideCreation(command) }];
  },
};
