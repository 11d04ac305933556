import { z } from 'zod';
import type { WebhookEndpointEvent } from '../../domain/webhook/events';
import type { Projection } from '../engine/projection';

export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';

/** A webhook endpoint as the admin API shows it, plus internal (`_`-prefixed, never shown) fields the delivery worker signs with. */
export const webhookEndpointDocument = z.object({
  id: z.string(),
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  status: z.enum(['enabled', 'disabled']),
  livemode: z.boolean(),
  created: z.string(),
  _organisation: z.string(),
  /** Log position of its creation: only later changes are announced to it. */
  _since: z.string(),
  /** Secrets that sign its deliveries: the current one (no expiry) and a rolled one for 24 hours. */
  _secrets: z.array(z.object({ secret: z.string(), expires_at: z.string().nullable() })),
});
export type WebhookEndpointDoc = z.infer<typeof webhookEndpointDocument>;

export const webhookEndpointsProjection: Projection<WebhookEndpointEvent> = {
  name: 'webhook_endpoints',
  version: 1,
  collections: [WEBHOOK_ENDPOINTS],
  indexes: [{ collection: WEBHOOK_ENDPOINTS, fields: ['_organisation', 'created'] }],
  handles: ['WebhookEndpointCreated', 'WebhookEndpointUpdated', 'WebhookEndpointSecretRolled', 'WebhookEndpointDeleted'],
  apply: async (event, context) => {
    if (event.type === 'WebhookEndpointCreated') {
      const { data } = event;
      context.put(WEBHOOK_ENDPOINTS, {
        id: data.endpointId,
        object: 'webhook_endpoint',
        url: data.url,
        description: data.description,
        events: data.events,
        status: 'enabled',
        livemode: event.metadata.livemode,
        created: event.metadata.businessTime,
        _organisation: data.organisationId,
        _since: event.position.toString(),
        _secrets: [{ secret: data.secret, expires_at: null }],
      } satisfies WebhookEndpointDoc);
      return;
    }
    if (event.type === 'WebhookTestRequested') return;
    const doc = await context.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, event.data.endpointId);
    if (!doc) return;
    switch (event.type) {
      case 'WebhookEndpointUpdated':
        context.put(WEBHOOK_ENDPOINTS, { ...doc, ...event.data.changes } satisfies WebhookEndpointDoc);
        return;
      case 'WebhookEndpointSecretRolled':
        context.put(WEBHOOK_ENDPOINTS, {
          ...doc,
          _secrets: [
            { secret: event.data.secret, expires_at: null },
            { secret: event.data.previousSecret, expires_at: event.data.previousExpiresAt },
          ],
        } satisfies WebhookEndpointDoc);
        return;
      case 'WebhookEndpointDeleted':
        context.delete(WEBHOOK_ENDPOINTS, doc.id);
        return;
    }
  },
};
