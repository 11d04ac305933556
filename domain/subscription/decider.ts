import type { Decider } from '../shared/decider';
import { ownedNow } from '../organisation/rules';
import { DomainError } from '../shared/domain-error';
import { type ChangeUnits, decideUnitChange } from './change-units';
import { type CreateSubscription, decideCreation } from './create';
import { decideEnd, type EndSubscription } from './end';
import type { SubscriptionCreatedData, SubscriptionEvent } from './events';
import { evolveLifecycle, type ExistingSubscription, initialLifecycle, type SubscriptionState } from './lifecycle';
import { decideRestore, type RestoreSubscription } from './restore';
import { decideScheduledStep, type RunScheduledStep } from './schedule';

export type { SubscriptionState } from './lifecycle';

/** A live subscription copied into its sandbox (`copiedSubscription` says how). */
export type CopySubscription = Readonly<{ type: 'CopySubscription'; subscription: SubscriptionCreatedData }>;

export type SubscriptionCommand = CreateSubscription | CopySubscription | ChangeUnits | EndSubscription | RestoreSubscription | RunScheduledStep;

const evolve = (state: SubscriptionState, event: SubscriptionEvent): SubscriptionState => {
  switch (event.type) {
    case 'SubscriptionCreated':
      return { status: event.data.status, subscription: event.data, life: initialLifecycle(event.data) };
    case 'SubscriptionUnitsChanged':
    case 'SubscriptionRenewalInvoiceRaised':
    case 'SubscriptionEndScheduled':
    case 'SubscriptionEnded':
    case 'SubscriptionRestored':
    case 'SubscriptionStarted':
    case 'SubscriptionCpiUplifted':
    case 'SubscriptionCpiUpliftWithheld':
    case 'SubscriptionRenewed':
    case 'SubscriptionCompleted':
      return state.status === 'none' ? state : evolveLifecycle(state, event);
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

/** The subscription a change names, or its 404 (another organisation's ids, and one a sandbox reset removed, included). */
const requireSubscription = (state: SubscriptionState, organisation: { organisationId: string; resetGeneration: number }): ExistingSubscription => {
  if (state.status === 'none' || !ownedNow(state.subscription, organisation)) {
    throw new DomainError('not_found', 'subscription_not_found', 'No such subscription.', 'id');
  }
  return state;
};

/** A retry of a change already made (same request-derived id) decides nothing: its handler answers the change made. */
const alreadyDone = (state: ExistingSubscription, operationId: string): boolean => operationId in state.life.operations;

const decide = (command: SubscriptionCommand, state: SubscriptionState): SubscriptionEvent[] => {
  switch (command.type) {
    case 'CreateSubscription':
      // The id derives from the API key and the Idempotency-Key: a retry finds the subscription made.
      if (state.status !== 'none') return [];
      return [{ type: 'SubscriptionCreated', data: decideCreation(command) }];
    case 'CopySubscription':
      // The id derives from the live subscription's: a copy run again finds it made.
      if (state.status !== 'none') return [];
      return [{ type: 'SubscriptionCreated', data: command.subscription }];
    case 'ChangeUnits': {
      const existing = requireSubscription(state, command.organisation);
      if (alreadyDone(existing, command.changeId)) return [];
      return [{ type: 'SubscriptionUnitsChanged', data: decideUnitChange(command, existing) }];
    }
    case 'EndSubscription': {
      const existing = requireSubscription(state, command.organisation);
      if (alreadyDone(existing, command.operationId)) return [];
      return [decideEnd(command, existing)];
    }
    case 'RestoreSubscription': {
      const existing = requireSubscription(state, command);
      if (alreadyDone(existing, command.operationId)) return [];
      return [decideRestore(command, existing)];
    }
    case 'RunScheduledStep':
      // The scheduler is the caller: a step not due (or done) decides nothing rather than refusing.
      return state.status === 'none' ? [] : decideScheduledStep(command, state);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
