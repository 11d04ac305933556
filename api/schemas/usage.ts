import { z } from 'zod';
import type { UsageRequestEvent } from '../../commands/usage/record-usage';
import { USAGE_REJECTIONS, type UsageOutcome } from '../../domain/usage/rules';
import { documentedAs } from './documented-as';

export const MAX_USAGE_EVENTS = 100;

/**
 * The decisions page's body. Its shape is checked here (a problem is a whole-request 422 naming the
 * field, e.g. `events.3.event_id`); the values of `quantity` and `timestamp` are the usage rules'
 * (`invalid_quantity`, `invalid_timestamp` for that event alone), so any value passes here.
 */
export const usageEventsBody = z.strictObject({
  events: z
    .array(
      z.strictObject({
        event_id: z
          .string()
          .min(1)
          .max(255)
          .regex(/^[^\p{C}]+$/u, 'must be printable characters')
          .describe('The client’s id, unique per organisation: 1 to 255 printable characters'),
        subscription: z.string().describe('Subscription id'),
        meter_code: z.string().describe('Meter code of a meter the subscription’s plan bills'),
        quantity: documentedAs(z.unknown().describe('Required: a decimal string or number, 0 or more, at most 4 decimal places (otherwise invalid_quantity)'), {
          anyOf: [{ type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,4})?$' }, { type: 'number', minimum: 0, maximum: 999_999_999_999.9999 }],
        }),
        timestamp: documentedAs(z.unknown().describe('ISO 8601 date and time with its offset; default now (the organisation’s clock)'), {
          type: 'string',
          format: 'date-time',
        }).optional(),
      }),
    )
    .min(1)
    .max(MAX_USAGE_EVENTS),
});

export type UsageEventsBody = z.infer<typeof usageEventsBody>;

const EVENT_FIELDS = new Set(['event_id', 'subscription', 'meter_code', 'quantity', 'timestamp']);
const PRINTABLE = /^[^\p{C}]+$/u;

const acceptedEvent = (event: unknown): boolean => {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return false;
  const fields = event as Record<string, unknown>;
  for (const key in fields) if (!EVENT_FIELDS.has(key)) return false;
  const id = fields.event_id;
  return (
    typeof id === 'string' && id.length >= 1 && id.length <= 255 && PRINTABLE.test(id) && typeof fields.subscription === 'string' && typeof fields.meter_code === 'string' && fields.quantity !== undefined
  );
};

/**
 * The body as `usageEventsBody` reads it, checked by hand, when the schema surely accepts it (a
 * batch's parse through the schema is a tenth of its request's work); undefined for anything else,
 * which the route then hands to the schema, so every refusal (status, code, param, message) is the
 * schema's own. Property-tested against the schema.
 */
export const acceptedUsageEventsBody = (body: Record<string, unknown>): UsageEventsBody | undefined => {
  for (const key in body) if (key !== 'events') return undefined;
  const { events } = body;
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_USAGE_EVENTS) return undefined;
  for (const event of events) if (!acceptedEvent(event)) return undefined;
  return body as UsageEventsBody;
};

export const toUsageRequest = (body: UsageEventsBody): UsageRequestEvent[] =>
  body.events.map((event) => ({
    eventId: event.event_id,
    subscription: event.subscription,
    meterCode: event.meter_code,
    quantity: event.quantity,
    timestamp: event.timestamp,
  }));

const USAGE_REJECTION_CODES = Object.keys(USAGE_REJECTIONS) as [keyof typeof USAGE_REJECTIONS, ...(keyof typeof USAGE_REJECTIONS)[]];

/** The API document's Usage event batch: `error` only on rejected entries (absent, not null, elsewhere). */
export const usageEventBatchObject = z
  .object({
    object: z.literal('usage_event_batch'),
    created: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    results: z.array(
      z.object({
        event_id: z.string(),
        status: z.enum(['created', 'duplicate', 'rejected']),
        error: z.object({ code: z.enum(USAGE_REJECTION_CODES), message: z.string() }).optional(),
      }),
    ),
  })
  .meta({ id: 'UsageEventBatch' });

export type UsageEventBatch = z.infer<typeof usageEventBatchObject>;

export const toUsageEventBatch = (events: readonly UsageRequestEvent[], outcomes: readonly UsageOutcome[]): UsageEventBatch => {
  const count = (status: UsageOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  return {
    object: 'usage_event_batch',
    created: count('created'),
    duplicates: count('duplicate'),
    rejected: count('rejected'),
    results: outcomes.map((outcome, i) => ({
      event_id: events[i]!.eventId,
      status: outcome.status,
      ...(outcome.status === 'rejected' ? { error: { code: outcome.code, message: outcome.message ?? USAGE_REJECTIONS[outcome.code] } } : {}),
    })),
  };
};
