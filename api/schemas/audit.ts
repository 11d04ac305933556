import { z } from 'zod';
import type { StoredEvent } from '../../infra/event-store/port';
import type { BilledUsageEvent } from '../../projections/queries/billed-usage';
import { pageLimit } from '../paging';
import { creditNoteObject } from './credit-note';
import { invoiceObject, subscriptionObject } from './subscription';

const actorObject = z.discriminatedUnion('type', [
  z.object({ type: z.literal('api_key'), id: z.string() }),
  z.object({ type: z.literal('console'), session: z.string() }),
  z.object({ type: z.enum(['admin', 'scheduler', 'system']) }),
]);

/** One recorded event of an object's history, its data upcast to the current version. */
export const eventObject = z
  .object({
    id: z.string(),
    object: z.literal('event'),
    position: z.number().int(),
    revision: z.number().int(),
    type: z.string(),
    version: z.number().int(),
    data: z.record(z.string(), z.unknown()),
    metadata: z.object({
      recorded_at: z.string(),
      business_time: z.string(),
      actor: actorObject,
      request_id: z.string().nullable(),
      causation_id: z.string().nullable(),
      correlation_id: z.string().nullable(),
    }),
  })
  .meta({ id: 'Event' });
export type EventObject = z.infer<typeof eventObject>;

export const toEventObject = (event: StoredEvent): EventObject => ({
  id: event.id,
  object: 'event',
  position: Number(event.position),
  revision: event.revision,
  type: event.type,
  version: event.version,
  data: event.data as Record<string, unknown>,
  metadata: {
    recorded_at: event.metadata.recordedTime,
    business_time: event.metadata.businessTime,
    actor: event.metadata.actor,
    request_id: event.metadata.requestId,
    causation_id: event.metadata.causationId,
    correlation_id: event.metadata.correlationId,
  },
});

/** One usage event an invoice line billed, as reported and stored. */
export const usageEventObject = z
  .object({
    object: z.literal('usage_event'),
    event_id: z.string(),
    meter: z.string(),
    meter_code: z.string(),
    quantity: z.string(),
    timestamp: z.string(),
    /** Whether the client sent the timestamp (else it is the organisation's clock when stored). */
    timestamp_sent: z.boolean(),
    period_start: z.string(),
    recorded_at: z.string(),
  })
  .meta({ id: 'UsageEvent' });

export const toUsageEventObject = (event: BilledUsageEvent): z.infer<typeof usageEventObject> => ({
  object: 'usage_event',
  event_id: event.eventId,
  meter: event.meterId,
  meter_code: event.meterCode,
  quantity: event.quantity,
  timestamp: event.timestamp,
  timestamp_sent: event.timestampSent,
  period_start: event.periodStart,
  recorded_at: event.recordedAt,
});

/** `limit` as every list; `starting_after` is a revision of the stream. */
export const historyQuery = z.strictObject({
  limit: pageLimit,
  starting_after: z
    .string()
    .regex(/^(?:0|[1-9]\d{0,14})$/, 'must be a revision: a whole number in decimal digits')
    .transform(Number)
    .optional()
    .describe('Revision of the last event of the previous page, in decimal digits'),
});

export const asOfQuery = z.strictObject({
  as_of: z.iso.datetime({ offset: true }).optional().describe('ISO 8601 instant; default now'),
});

export const subscriptionAsOfObject = subscriptionObject
  .extend({ invoices: z.array(invoiceObject), credit_notes: z.array(creditNoteObject) })
  .meta({ id: 'SubscriptionAsOf' });
