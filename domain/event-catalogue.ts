import { apiKeyEventDefinitions } from './api-key/events';
import { chargeEventDefinitions } from './charge/events';
import { creditNoteEventDefinitions } from './credit-note/events';
import { customerEventDefinitions } from './customer/events';
import { invoiceEventDefinitions } from './invoice/events';
import { meterEventDefinitions } from './meter/events';
import { organisationEventDefinitions } from './organisation/events';
import { planEventDefinitions } from './plan/events';
import type { EventDefinition } from './shared/event-definition';
import { subscriptionEventDefinitions } from './subscription/events';
import { usageEventDefinitions } from './usage/events';
import { webhookEndpointEventDefinitions } from './webhook/events';

/** Every event type the log may hold, by type. */
export const eventCatalogue: ReadonlyMap<string, EventDefinition> = new Map(
  [
    ...organisationEventDefinitions,
    ...apiKeyEventDefinitions,
    ...customerEventDefinitions,
    ...meterEventDefinitions,
    ...planEventDefinitions,
    ...chargeEventDefinitions,
    ...subscriptionEventDefinitions,
    ...invoiceEventDefinitions,
    ...webhookEndpointEventDefinitions,
    ...creditNoteEventDefinitions,
    ...usageEventDefinitions,
  ].map((definition) => [definition.type, definition]),
);
