import { z } from 'zod';
import type { EventDefinition } from '../shared/event-definition';

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

export type WebhookEndpointCreated = { type: 'WebhookEndpointCreated'; data: z.infer<typeof created> };
export type WebhookEndpointUpdated = { type: 'WebhookEndpointUpdated'; data: z.infer<typeof updated> };
export type WebhookEndpointSecretRolled = { type: 'WebhookEndpointSecretRolled'; data: z.infer<typeof secretRolled> };
export type WebhookEndpointDeleted = { type: 'WebhookEndpointDeleted'; data: z.infer<typeof deleted> };
export type WebhookTestRequested = { type: 'WebhookTestRequested'; data: z.infer<typeof testRequested> };
export type WebhookEndpointEvent = WebhookEndpointCreated | WebhookEndpointUpdated | WebhookEndpointSecretRolled | WebhookEndpointDeleted | WebhookTestRequested;

export const webhookEndpointEventDefinitions: EventDefinition[] = [
  { type: 'WebhookEndpointCreated', version: 1, schema: created },
  { type: 'WebhookEndpointUpdated', version: 1, schema: updated },
  { type: 'WebhookEndpointSecretRolled', version: 1, schema: secretRolled },
  { type: 'WebhookEndpointDeleted', version: 1, schema: deleted },
  { type: 'WebhookTestRequested', version: 1, schema: testRequested },
];

export const webhookEndpointStream = (endpointId: string): string => `webhook_endpoint-${endpointId}`;
