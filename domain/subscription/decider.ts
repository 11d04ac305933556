import type { Decider } from '../shared/decider';
import { type CreateSubscription, decideCreation } from './create';
import type { SubscriptionCreatedData, SubscriptionEvent } from './events';

export type SubscriptionState = { status: 'none' } | { status: 'pending' | 'active'; subscription: SubscriptionCreatedData };

export type SubscriptionCommand = CreateSubscription;

const evolve = (_state: SubscriptionState, event: SubscriptionEvent): SubscriptionState => {
  switch (event.type) {
    case 'SubscriptionCreated':
      return { status: event.data.status, subscription: event.data };
    default: {
      const exhaustive: never = event.type;
      return exhaustive;
    }
  }
};

const decide = (command: SubscriptionCommand, state: SubscriptionState): SubscriptionEvent[] => {
  switch (command.type) {
    case 'CreateSubscription':
      // The id derives from the API key and the Idempotency-Key: a retry finds the subscription made.
      if (state.status !== 'none') return [];
      return [{ type: 'SubscriptionCreated', data: decideCreation(command) }];
    default: {
      const exhaustive: never = command.type;
      return exhaustive;
    }
  }
};

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
