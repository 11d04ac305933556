import { apiKeyEvents } from './api-key/events';
import { chargeEvents } from './charge/events';
import { creditNoteEvents } from './credit-note/events';
import { customerEvents } from './customer/events';
import { invoiceEvents } from './invoice/events';
import { meterEvents } from './meter/events';
import { organisationEvents } from './organisation/events';
import { planEvents } from './plan/events';
import type { EventOf } from './shared/define-events';
import type { EventDefinition } from './shared/event-definition';
import { subscriptionEvents } from './subscription/events';
import { usageEvents } from './usage/events';
import { webhookEndpointEvents } from './webhook/events';

const everyEvent = {
  ...organisationEvents,
  ...apiKeyEvents,
  ...customerEvents,
  ...meterEvents,
  ...planEvents,
  ...chargeEvents,
  ...subscriptionEvents,
  ...invoiceEvents,
  ...webhookEndpointEvents,
  ...creditNoteEvents,
  ...usageEvents,
};

/** Any event the log may hold, as `{ type, data }`: its type names its data's. */
export type CatalogueEvent = EventOf<typeof everyEvent>;

/** Every event type the log may hold, by type. */
export const eventCatalogue: ReadonlyMap<string, EventDefinition> = new Map(Object.entries(everyEvent));
