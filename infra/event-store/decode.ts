import { eventCatalogue } from '../../domain/event-catalogue';
import { upcast } from '../../domain/shared/event-definition';
import type { StoredEvent } from './port';

/** A stored event with its data upcast to the current version and checked against its schema. */
export const decodeEvent = (event: StoredEvent): StoredEvent => {
  const definition = eventCatalogue.get(event.type);
  if (!definition) throw new Error(`unknown event type ${event.type} at position ${event.position}`);
  return { ...event, version: definition.version, data: upcast(definition, event.version, event.data) };
};
