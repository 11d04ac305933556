import { decodeEvent } from '../domain/decode-event';
import { eventCatalogue } from '../domain/event-catalogue';
import { isLoopback, refusedRange } from '../domain/webhook/address';
import { checkEndpointUrl } from '../domain/webhook/endpoint-rules';
import { subscribesTo } from '../domain/webhook/event-types';
import { type WebhookEventDraft, webhookEventsOf } from '../domain/webhook/event-objects';
import type { WebhookEndpointEvent } from '../domain/webhook/events';
import type { StoredEvent } from '../infra/event-store/port';
import { derivedId } from '../infra/ids';
import type { Job, JobQueue } from '../infra/jobs/port';
import { webhookDeliveries } from '../infra/metrics/metrics';
import type { Resolver } from '../infra/webhooks/resolver';
import { DeliveryFailed, webhookSender } from '../infra/webhooks/sender';
import { signatureHeader } from '../infra/webhooks/signature';
import { WEBHOOK_DELIVERIES, type WebhookDeliveryDoc } from '../projections/webhook-deliveries';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointDoc } from '../projections/webhook-endpoints';
import type { WorkerDeps } from './deps';
import { LogFollower } from './log-follower';
import { trackedObjects } from './tracked-objects';

/** The decisions page's schedule: waits after each failed attempt, about 20 hours in all. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [30, 120, 600, 1800, 3600, 7200, 14400, 21600, 21600];
const TIMEOUT_MS = 10_000;
const JITTER = 0.1;

export type WebhookOptions = Readonly<{ retryScheduleSeconds?: readonly number[]; allowLoopback?: boolean; resolver: Resolver }>;

export type DeliveryJob = Readonly<{ deliveryId: string; endpointId: string; organisationId: string; eventId: string; eventType: string; body: string }>;

/** Every event of the objects webhooks describe (new types included as they are added), the endpoints' own test and deletion, and a sandbox reset. */
const HANDLED = [...eventCatalogue.keys()].filter(
  (type) =>
    /^(Customer|Subscription|Invoice|CreditNote)[A-Z]/.test(type) ||
    type === 'WebhookTestRequested' ||
    type === 'WebhookEndpointDeleted' ||
    type === 'SandboxReset',
);

/**
 * Webhooks: fan-out follows the log and turns each domain event into the API document's event
 * objects (thin: id, type and tracked fields, with previous_attributes), one delivery job per
 * subscribed endpoint that existed before the change, under ids derived from the domain event (a
 * replay never mints a second event id). Delivery signs, posts with a 10 s timeout, counts only a
 * 2xx as success (a 3xx is a failure, redirects are not followed), re-checks the address rules on
 * the resolved addresses at every attempt, and retries on the schedule with ±10 % jitter.
 */
export const webhooks = (deps: WorkerDeps, options: WebhookOptions) => {
  const logger = deps.logger.child({ worker: 'webhooks' });
  const schedule = options.retryScheduleSeconds ?? DEFAULT_RETRY_SCHEDULE_SECONDS;
  const allowLoopback = options.allowLoopback ?? false;
  const send = webhookSender(options.resolver);
  const beforeAndAfter = trackedObjects(deps.store);
  const queue: JobQueue<DeliveryJob> = deps.queues.queue<DeliveryJob>('webhook-delivery', {
    attempts: schedule.length + 1,
    delayMs: (failed) => Math.round((schedule[failed - 1] ?? schedule[schedule.length - 1] ?? 0) * 1000 * (1 - JITTER + 2 * JITTER * Math.random())),
  });

  /** The endpoints read model must include the event's position, so an endpoint created just before it is seen. */
  const endpointsAt = async (organisationId: string, position: bigint): Promise<WebhookEndpointDoc[]> => {
    await deps.waitForProjections(position);
    return deps.readStore.findAll<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, [{ field: '_organisation', eq: organisationId }]);
  };

  const enqueue = async (event: StoredEvent, draft: WebhookEventDraft, endpoints: readonly WebhookEndpointDoc[]) => {
    const eventId = derivedId('event', event.id, draft.type);
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      type: draft.type,
      created: event.metadata.recordedTime,
      livemode: event.metadata.livemode,
      data: { object: draft.object, ...(draft.previousAttributes ? { previous_attributes: draft.previousAttributes } : {}) },
    });
    for (const endpoint of endpoints) {
      const deliveryId = derivedId('delivery', eventId, endpoint.id);
      if (!(await deps.readStore.get(WEBHOOK_DELIVERIES, deliveryId))) {
        const doc: WebhookDeliveryDoc = {
          id: deliveryId,
          object: 'webhook_delivery',
          endpoint: endpoint.id,
          event: eventId,
          event_type: draft.type,
          status: 'pending',
          attempts: [],
          next_attempt_at: deps.clocks.wall.now().toISOString(),
          created: deps.clocks.wall.now().toISOString(),
          _organisation: endpoint._organisation,
        };
        await deps.readStore.commit([{ op: 'put', collection: WEBHOOK_DELIVERIES, doc }]);
      }
      await queue.add(deliveryId, { deliveryId, endpointId: endpoint.id, organisationId: endpoint._organisation, eventId, eventType: draft.type, body });
    }
  };

  const onEvents = async (events: readonly StoredEvent[]) => {
    for (const event of events) {
      const organisationId = event.metadata.organisationId;
      // The follower hands events over undecoded: the data of those two is read, the rest are folded from their streams.
      if (event.type === 'WebhookEndpointDeleted') {
        const { endpointId } = (decodeEvent(event) as unknown as WebhookEndpointEvent).data;
        const deliveries = await deps.readStore.findAll<WebhookDeliveryDoc>(WEBHOOK_DELIVERIES, [{ field: 'endpoint', eq: endpointId }]);
        if (deliveries.length > 0) await deps.readStore.commit(deliveries.map((d) => ({ op: 'delete' as const, collection: WEBHOOK_DELIVERIES, id: d.id })));
        continue;
      }
      if (event.type === 'SandboxReset') {
        // Past webhook events and deliveries go with the reset; those still retrying stop (below).
        await deps.readStore.commit([{ op: 'deleteWhere', collection: WEBHOOK_DELIVERIES, field: '_organisation', eq: organisationId }]);
        continue;
      }
      const endpoints = (await endpointsAt(organisationId, event.position)).filter((e) => e.status === 'enabled');
      if (event.type === 'WebhookTestRequested') {
        const { endpointId } = (decodeEvent(event) as unknown as WebhookEndpointEvent & { type: 'WebhookTestRequested' }).data;
        const target = endpoints.filter((e) => e.id === endpointId);
        await enqueue(event, { type: 'webhook.test', object: { id: endpointId, object: 'webhook_endpoint' } }, target);
        continue;
      }
      // Only endpoints that existed before the change hear of it: a new endpoint announces later changes only.
      const listening = endpoints.filter((e) => BigInt(e._since) < event.position);
      if (listening.length === 0) continue;
      const [before, after] = await beforeAndAfter(event);
      for (const draft of webhookEventsOf(event.type, before, after)) {
        await enqueue(event, draft, listening.filter((e) => subscribesTo(e.events, draft.type)));
      }
    }
  };

  const follower = new LogFollower('webhooks', deps, HANDLED, onEvents);

  const recordAttempt = async (deliveryId: string, attempt: WebhookDeliveryDoc['attempts'][number], status: WebhookDeliveryDoc['status'], nextAttemptAt: string | null) => {
    const doc = await deps.readStore.get<WebhookDeliveryDoc>(WEBHOOK_DELIVERIES, deliveryId);
    if (!doc) return;
    await deps.readStore.commit([{ op: 'put', collection: WEBHOOK_DELIVERIES, doc: { ...doc, status, attempts: [...doc.attempts, attempt], next_attempt_at: nextAttemptAt } satisfies WebhookDeliveryDoc }]);
  };

  const deliver = async (job: Job<DeliveryJob>) => {
    const { deliveryId, endpointId, eventId, body } = job.data;
    const endpoint = await deps.readStore.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, endpointId);
    // Deleted with its history, or the delivery removed by a sandbox reset: not attempted again.
    if (!endpoint || !(await deps.readStore.get(WEBHOOK_DELIVERIES, deliveryId))) return;
    const now = deps.clocks.wall.now();
    const started = now.getTime();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      if (endpoint.status !== 'enabled') throw new DeliveryFailed('the endpoint is turned off');
      const url = checkEndpointUrl(endpoint.url, { allowLoopback, resolved: null });
      const loopbackOk = allowLoopback && url.protocol === 'http:';
      const secrets = endpoint._secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > started).map((s) => s.secret);
      const result = await send({
        url,
        body,
        timeoutMs: TIMEOUT_MS,
        checkAddress: (address) => {
          if (loopbackOk && isLoopback(address)) return null;
          const range = refusedRange(address);
          return range ? `${url.hostname} resolves to ${address}, ${range}: refused` : null;
        },
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Service-Webhooks/1',
          'Service-Signature': signatureHeader(secrets, Math.floor(started / 1000), body),
          'Service-Event-Id': eventId,
          'Service-Delivery-Id': deliveryId,
          'Service-Delivery-Attempt': String(job.attempt),
        },
      });
      statusCode = result.status;
      if (statusCode < 200 || statusCode >= 300) error = statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `status ${statusCode}`;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const durationMs = deps.clocks.wall.now().getTime() - started;
    const last = job.attempt >= schedule.length + 1;
    const succeeded = error === null;
    const nextWait = schedule[job.attempt - 1];
    const outcome = succeeded ? 'delivered' : last ? 'failed' : 'retry';
    await recordAttempt(
      deliveryId,
      { attempt: job.attempt, at: now.toISOString(), status_code: statusCode, error, duration_ms: durationMs },
      succeeded ? 'succeeded' : last ? 'failed' : 'pending',
      succeeded || last || nextWait === undefined ? null : new Date(started + durationMs + nextWait * 1000).toISOString(),
    );
    logger.info(
      { deliveryId, endpointId, eventId, eventType: job.data.eventType, organisationId: job.data.organisationId, attempt: job.attempt, statusCode, error, ms: durationMs, outcome },
      'webhook delivery attempt',
    );
    webhookDeliveries.inc({ outcome });
    if (!succeeded) throw new Error(error ?? 'delivery failed');
  };

  return {
    queue,
    follower,
    /** Takes delivery jobs in this process (every process shares them); the follower runs under a lease. */
    processJobs: () => queue.process(deliver, { concurrency: 8 }),
  };
};
