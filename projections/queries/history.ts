import { decodeEvent } from '../../domain/decode-event';
import { streamOfObject } from '../../domain/object-streams';
import type { EventStore, StoredEvent } from '../../infra/event-store/port';

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

/**
 * A page of one object's events, as `objectHistory` gives them: up to `limit` after the revision
 * `after`. Null as there; `unknown_revision` when `after` names no event of the stream. Reads the
 * page (and the stream's first event, for its owner), so a page of a long stream costs what a page
 * of a short one does.
 */
export const objectHistoryPage = async (
  store: EventStore,
  organisationId: string,
  objectId: string,
  after: number | undefined,
  limit: number,
): Promise<Readonly<{ events: StoredEvent[]; hasMore: boolean }> | 'unknown_revision' | null> => {
  const stream = streamOfObject(objectId);
  if (!stream) return null;
  // From the event it starts after, to tell that it exists, and one more than the page, to tell whether more follow.
  const read = await store.readStream(stream, after ?? 0, limit + (after === undefined ? 1 : 2));
  const first = after === undefined ? read : await store.readStream(stream, 0, 1);
  if (!ownedBy(first, organisationId, objectId)) return null;
  if (after !== undefined && read[0]?.revision !== after) return 'unknown_revision';
  const events = after === undefined ? read : read.slice(1);
  return { events: events.slice(0, limit).map(decodeEvent), hasMore: events.length > limit };
};
