import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';

const created = z.object({
  endpointId: z.string(),
  organisationId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  /** The signing secret (`whsec_…`): the HMAC key, kept to sign every delivery. */
  secret: z.string(),
});

const updated = z.object({
  endpointId: z.string(),
  changes: z
    .object({
      url: z.string(),
      description: z.string().nullable(),
      events: z.array(z.string()),
      status: z.enum(['enabled', 'disabled']),
    })
    .partial(),
});

const secretRolled = z.object({
  endpointId: z.string(),
  secret: z.string(),
  /** The old secret keeps signing until then (24 hours after the roll). */
  previousSecret: z.string(),
  previousExpiresAt: z.string(),
});

const deleted = z.object({ endpointId: z.string() });

const testRequested = z.object({ endpointId: z.string(), testId: z.string() });

export const webhookEndpointEvents = defineEvents({
  WebhookEndpointCreated: created,
  WebhookEndpointUpdated: updated,
  WebhookEndpointSecretRolled: secretRolled,
  WebhookEndpointDeleted: deleted,
  WebhookTestRequested: testRequested,
});
export type WebhookEndpointEvent<Type extends keyof typeof webhookEndpointEvents = keyof typeof webhookEndpointEvents> = EventOf<typeof webhookEndpointEvents, Type>;

export const webhookEndpointStream = (endpointId: string): string => `webhook_endpoint-${endpointId}`;
