import { webhookEndpointDecider } from '../../domain/webhook/decider';
import { webhookEndpointStream } from '../../domain/webhook/events';
import { boundHandler } from './bound-handler';

export const webhookEndpointCommand = boundHandler(webhookEndpointDecider, webhookEndpointStream);
