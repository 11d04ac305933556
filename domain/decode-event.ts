import { eventCatalogue } from './event-catalogue';
import { upcast } from './shared/event-definition';

/** What decoding needs of a stored event; the log's own record type satisfies it. */
type RecordedEvent = Readonly<{ type: string; version: number; data: unknown; position?: bigint }>;

/** A recorded event with its data upcast to the current version and checked against its schema. */
export const decodeEvent = <E extends RecordedEvent>(event: E): E => {
  const definition = eventCatalogue.get(event.type);
  if (!definition) throw new Error(`unknown event type ${event.type} at position ${String(event.position)}`);
  return { ...event, version: definition.version, data: upcast(definition, event.version, event.data) };
};
