import { apiKeyEventDefinitions } from './api-key/events';
import { organisationEventDefinitions } from './organisation/events';
import type { EventDefinition } from './shared/event-definition';

/** Every event type the log may hold, by type. */
export const eventCatalogue: ReadonlyMap<string, EventDefinition> = new Map(
  [...organisationEventDefinitions, ...apiKeyEventDefinitions].map((definition) => [definition.type, definition]),
);
