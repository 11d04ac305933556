import { encodeEvent } from '../domain/decode-event';
import type { EventMetadata, NewEvent } from '../infra/event-store/port';
import { newEventId } from '../infra/ids';

/** An event as a command's append writes it: its data checked against its schema, the schema's fingerprint in its metadata. */
export const appendedEvent = (type: string, data: unknown, metadata: EventMetadata): NewEvent => {
  const encoded = encodeEvent(type, data);
  return { id: newEventId(), type, version: encoded.version, data: encoded.data, metadata: { ...metadata, dataSchema: encoded.dataSchema } };
};
