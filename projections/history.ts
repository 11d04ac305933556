import { decodeEvent } from '../domain/decode-event';
import { streamOfObject } from '../domain/object-streams';
import type { EventStore, StoredEvent } from '../infra/event-store/port';

/** Whether a stream's events were recorded for the organisation (its own stream, for an organisation). */
export const ownedBy = (events: readonly StoredEvent[], organisationId: string, objectId: string): boolean =>
  events.length > 0 && (objectId === organisationId || events[0]!.metadata.organisationId === organisationId);

/**
 * Every event of one object, oldest first, upcast to its current version; null when the id names no
 * stream, or one of another organisation (a tenant sees nothing of another's).
 */
export const objectHistory = async (store: EventStore, organisationId: string, objectId: string): Promise<StoredEvent[] | null> => {
  const stream = streamOfObject(objectId);
  if (!stream) return null;
  const events = await store.readStream(stream);
  return ownedBy(events, organisationId, objectId) ? events.map(decodeEvent) : null;
};
