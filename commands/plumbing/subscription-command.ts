import { subscriptionDecider } from '../../domain/subscription/decider';
import { subscriptionStream } from '../../domain/subscription/events';
import { boundHandler } from './bound-handler';

export const subscriptionCommand = boundHandler(subscriptionDecider, subscriptionStream);
