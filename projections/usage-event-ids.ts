import { z } from 'zod';
import type { UsageRecorded } from '../domain/usage/events';
import type { Projection } from './projection';

export const USAGE_EVENT_IDS = 'usage_event_ids';

/** Which subscription an organisation's event id is stored on: the commands' lookup for ids reused across subscriptions. */
export const usageEventIdDocument = z.object({ id: z.string(), subscription: z.string(), _organisation: z.string() });
export type UsageEventIdDoc = z.infer<typeof usageEventIdDocument>;

/** Organisation ids hold no ':', so the first one ends the organisation whatever the client's id holds. */
export const usageEventIdKey = (organisationId: string, eventId: string): string => `${organisationId}:${eventId}`;

/**
 * A projection of its own (not part of `usage`): its documents arrive at random keys, so the
 * embedded service lets it lag, held in memory and committed in large flushes (`RunnerOptions.lagging`).
 */
export const usageEventIdsProjection: Projection = {
  name: 'usage_event_ids',
  version: 1,
  collections: [USAGE_EVENT_IDS],
  // Shared documents: per id a short key and a reference, the fields a write's ids share stored once.
  indexes: [{ collection: USAGE_EVENT_IDS, fields: [], sharedDocuments: true }],
  handles: ['UsageRecorded'],
  apply: (event, context) => {
    const { subscriptionId, organisationId, groups } = (event as unknown as UsageRecorded).data;
    const shared = { subscription: subscriptionId, _organisation: organisationId };
    for (const group of groups) context.putEach(USAGE_EVENT_IDS, group.events.map((usage) => usageEventIdKey(organisationId, usage.eventId)), shared);
    return Promise.resolve();
  },
};
