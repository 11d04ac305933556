import { type CatalogueEvent, eventCatalogue } from './event-catalogue';
import { type EventDefinition, schemaFingerprint, upcast } from './shared/event-definition';

/** What decoding needs of a stored event; the log's own record type satisfies it. */
type RecordedEvent = Readonly<{ type: string; version: number; data: unknown; position?: bigint; metadata?: Readonly<{ dataSchema?: string }> }>;

const definitionOf = (type: string, position?: bigint): EventDefinition => {
  const definition = eventCatalogue.get(type);
  if (!definition) throw new Error(`unknown event type ${type}${position === undefined ? '' : ` at position ${String(position)}`}`);
  return definition;
};

/** A recorded event decoded: one of the catalogue's, its data typed by its type, the rest of the record as it was. */
export type DecodedEvent<E extends RecordedEvent> = Omit<E, 'type' | 'data'> & CatalogueEvent;

/**
 * A recorded event with its data upcast to the current version and checked against its schema
 * (which is what makes its data its type's). Data appended checked against the schema this code has
 * (`encodeEvent`'s fingerprint in its metadata) is taken as stored: checking it again would change nothing.
 */
export const decodeEvent = <E extends RecordedEvent>(event: E): DecodedEvent<E> => {
  const definition = definitionOf(event.type, event.position);
  const checked = event.version === definition.version && event.metadata?.dataSchema === schemaFingerprint(definition);
  return { ...event, version: definition.version, data: checked ? event.data : upcast(definition, event.version, event.data) } as DecodedEvent<E>;
};

/**
 * An event's data as the log is to hold it: checked against its type's schema (what the schema does
 * not name dropped, as a reader would drop it), with its version and the schema's fingerprint.
 */
export const encodeEvent = (type: string, data: unknown): Readonly<{ version: number; data: unknown; dataSchema: string }> => {
  const definition = definitionOf(type);
  return { version: definition.version, data: definition.schema.parse(data), dataSchema: schemaFingerprint(definition) };
};
