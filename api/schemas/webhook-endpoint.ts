import { z } from 'zod';
import { webhookDeliveryDocument } from '../../infra/webhooks/deliveries';
import { webhookEndpointDocument } from '../../projections/read-models/webhook-endpoints';
import type { EndpointChanges, EndpointInput } from '../../commands/webhook/save-webhook-endpoint';

export const webhookEndpointObject = webhookEndpointDocument.omit({ _organisation: true, _since: true, _secrets: true }).meta({ id: 'WebhookEndpoint' });

/** The endpoint with its signing secret: only in the answers to create and roll_secret. */
export const webhookEndpointWithSecret = webhookEndpointObject.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointWithSecret' });

export const webhookDeliveryObject = webhookDeliveryDocument.omit({ _organisation: true }).meta({ id: 'WebhookDelivery' });

export const deletedWebhookEndpoint = z.object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) });

export const webhookTestObject = z.object({ object: z.literal('webhook_test'), endpoint: z.string(), status: z.literal('queued') });

const url = z.string().describe('https:// on port 443, reachable from the internet; no credentials or fragment; up to 2,000 characters');
const events = z.array(z.string()).describe('Event types, or ["*"] for every event including types added later');
const description = z.string().nullable().describe('Up to 255 characters');

export const createWebhookEndpointBody = z.strictObject({ url, description: description.optional(), events });
export const updateWebhookEndpointBody = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  events: events.optional(),
  status: z.enum(['enabled', 'disabled']).optional(),
});

export const toEndpointInput = (body: z.infer<typeof createWebhookEndpointBody>): EndpointInput => ({
  url: body.url,
  description: body.description ?? null,
  events: body.events,
});

export const toEndpointChanges = (body: z.infer<typeof updateWebhookEndpointBody>): EndpointChanges =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
