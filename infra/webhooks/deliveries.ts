import { z } from 'zod';
import { listIndexes } from '../read-store/list-indexes';

export const WEBHOOK_DELIVERIES = 'webhook_deliveries';

/**
 * One delivery of one event to one endpoint, with every attempt. Operational history rather than a
 * business fact: the delivery worker writes it as it goes (it is not folded from the log, so a
 * rebuild of the read models leaves it alone), and deleting the endpoint deletes it.
 */
export const webhookDeliveryDocument = z.object({
  id: z.string(),
  object: z.literal('webhook_delivery'),
  endpoint: z.string(),
  event: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.string(),
      status_code: z.number().int().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number().int(),
    }),
  ),
  next_attempt_at: z.string().nullable(),
  created: z.string(),
  _organisation: z.string(),
});
export type WebhookDeliveryDoc = z.infer<typeof webhookDeliveryDocument>;

/** An endpoint's deliveries listed newest first; a sandbox's emptied at a reset, an endpoint's at its deletion. */
export const WEBHOOK_DELIVERY_INDEXES = listIndexes(WEBHOOK_DELIVERIES, ['endpoint']);
