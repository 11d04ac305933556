import { decodeEvent } from '../../domain/decode-event';
import { forEachStoredUsage } from '../../domain/usage/decider';
import { usageStream } from '../../domain/usage/events';
import type { UsageIdHolder } from '../../domain/usage/state';
import type { EventStore } from '../../infra/event-store/port';

/** Where an id is stored for sure, and the details it was stored with. */
export type StoredUsageId = Readonly<{ subscriptionId: string; details: string }>;

/**
 * Which of the ids the events the lookup named do hold, with their details: one read of each event
 * named (a fingerprint match may name one that does not hold the id). Events never change, so no
 * stream's lock is needed.
 */
export const confirmHolders = async (store: EventStore, holders: ReadonlyMap<string, readonly UsageIdHolder[]>): Promise<Map<string, StoredUsageId[]>> => {
  const wanted = new Map<string, Readonly<{ holder: UsageIdHolder; eventIds: Set<string> }>>();
  for (const [eventId, named] of holders) {
    for (const holder of named) {
      const key = `${holder.subscriptionId}@${holder.revision}`;
      const event = wanted.get(key);
      if (event) event.eventIds.add(eventId);
      else wanted.set(key, { holder, eventIds: new Set([eventId]) });
    }
  }
  const confirmed = new Map<string, StoredUsageId[]>();
  for (const { holder, eventIds } of wanted.values()) {
    const [stored] = await store.readStreamToFold(usageStream(holder.subscriptionId), holder.revision, 1);
    const event = stored && decodeEvent(stored);
    if (event?.type !== 'UsageRecorded') continue;
    forEachStoredUsage(event.data, (eventId, details) => {
      if (!eventIds.has(eventId)) return;
      const found = confirmed.get(eventId);
      if (found) found.push({ subscriptionId: holder.subscriptionId, details });
      else confirmed.set(eventId, [{ subscriptionId: holder.subscriptionId, details }]);
    });
  }
  return confirmed;
};
