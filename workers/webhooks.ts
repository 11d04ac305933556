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
import { loopTurns } from '../infra/loop-turns';
import { deleteInSteps } from '../infra/read-store/delete-in-steps';
import type { Resolver } from '../infra/webhooks/resolver';
import { DeliveryFailed, webhookSender } from '../infra/webhooks/sender';
import { signatureHeader } from '../infra/webhooks/signature';
import { WEBHOOK_DELIVERIES, type WebhookDeliveryDoc } from '../infra/webhooks/deliveries';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointDoc } from '../projections/read-models/webhook-endpoints';
import type { WorkerDeps } from './deps';
import { LogFollower } from './log-follower';
import { trackedObjects } from './tracked-objects';

/** The decisions page's schedule: waits after each failed attempt, about 20 hours in all. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [30, 120, 600, 1800, 3600, 7200, 14400, 21600, 21600];
const TIMEOUT_MS = 10_000;
const JITTER = 0.1;
/** Deliveries written in one commit (and their jobs in the next): a few milliseconds of the loop. */
const WRITTEN_AT_ONCE = 100;

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

  /** A delivery the fan-out has decided on: its document (written unless there already) and its job. */
  type Planned = Readonly<{ doc: WebhookDeliveryDoc; job: DeliveryJob }>;

  const planned = (event: StoredEvent, draft: WebhookEventDraft, endpoints: readonly WebhookEndpointDoc[]): Planned[] => {
    const eventId = derivedId('event', event.id, draft.type);
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      type: draft.type,
      created: event.metadata.recordedTime,
      livemode: event.metadata.livemode,
      data: { object: draft.object, ...(draft.previousAttributes ? { previous_attributes: draft.previousAttributes } : {}) },
    });
    const now = deps.clocks.wall.now().toISOString();
    return endpoints.map((endpoint) => {
      const deliveryId = derivedId('delivery', eventId, endpoint.id);
      return {
        doc: { id: deliveryId, object: 'webhook_delivery', endpoint: endpoint.id, event: eventId, event_type: draft.type, status: 'pending', attempts: [], next_attempt_at: now, created: now, _organisation: endpoint._organisation },
        job: { deliveryId, endpointId: endpoint.id, organisationId: endpoint._organisation, eventId, eventType: draft.type, body },
      };
    });
  };

  /**
   * The deliveries planned so far, written a hundred at a time: the documents not already there (a
   * replay keeps those it finds, attempts and all) in one commit, then the jobs, added in one loop
   * turn so they share its commit (after the documents: a job that finds no document is not attempted).
   */
  const write = async (all: readonly Planned[]): Promise<void> => {
    for (let from = 0; from < all.length; from += WRITTEN_AT_ONCE) await writeSome(all.slice(from, from + WRITTEN_AT_ONCE));
  };
  const writeSome = async (deliveries: readonly Planned[]): Promise<void> => {
    const existing = new Set((await deps.readStore.getMany(WEBHOOK_DELIVERIES, deliveries.map(({ doc }) => doc.id))).map((doc) => doc.id));
    const docs = deliveries.filter(({ doc }) => !existing.has(doc.id));
    if (docs.length > 0) await deps.readStore.commit(docs.map(({ doc }) => ({ op: 'put' as const, collection: WEBHOOK_DELIVERIES, doc })));
    await Promise.all(deliveries.map(({ job }) => queue.add(job.deliveryId, job)));
  };

  /**
   * Fan-out of a batch of the log: every event's deliveries planned first (the endpoints read once
   * per organisation, once the read models include the batch, the loop turning between events when
   * they take long), then written together, so a batch of thousands of changes costs a few commits,
   * not two per delivery. An endpoint's deletion or a reset writes what was planned before it first.
   */
  const onEvents = async (events: readonly StoredEvent[]) => {
    await deps.waitForProjections(events[events.length - 1]!.position);
    const endpointsOf = new Map<string, WebhookEndpointDoc[]>();
    const enabledEndpoints = async (organisationId: string) => {
      let endpoints = endpointsOf.get(organisationId);
      if (!endpoints) {
        endpoints = (await deps.readStore.findAll<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, [{ field: '_organisation', eq: organisationId }])).filter((e) => e.status === 'enabled');
        endpointsOf.set(organisationId, endpoints);
      }
      return endpoints;
    };
    const turns = loopTurns();
    let deliveries: Planned[] = [];
    for (const event of events) {
      await turns.pause();
      const organisationId = event.metadata.organisationId;
      // The follower hands events over undecoded: the data of those two is read, the rest are folded from their streams.
      if (event.type === 'WebhookEndpointDeleted') {
        await write(deliveries);
        deliveries = [];
        const { endpointId } = (decodeEvent(event) as unknown as WebhookEndpointEvent).data;
        const gone = await deps.readStore.findAll<WebhookDeliveryDoc>(WEBHOOK_DELIVERIES, [
          { field: '_organisation', eq: organisationId },
          { field: 'endpoint', eq: endpointId },
        ]);
        if (gone.length > 0) await deps.readStore.commit(gone.map((d) => ({ op: 'delete' as const, collection: WEBHOOK_DELIVERIES, id: d.id })));
        continue;
      }
      if (event.type === 'SandboxReset') {
        await write(deliveries);
        deliveries = [];
        // Past webhook events and deliveries go with the reset; those still retrying stop (below).
        await deleteInSteps(deps.readStore, WEBHOOK_DELIVERIES, '_organisation', organisationId);
        continue;
      }
      const endpoints = await enabledEndpoints(organisationId);
      if (event.type === 'WebhookTestRequested') {
        const { endpointId } = (decodeEvent(event) as unknown as WebhookEndpointEvent & { type: 'WebhookTestRequested' }).data;
        deliveries.push(...planned(event, { type: 'webhook.test', object: { id: endpointId, object: 'webhook_endpoint' } }, endpoints.filter((e) => e.id === endpointId)));
        continue;
      }
      // Only endpoints that existed before the change hear of it: a new endpoint announces later changes only.
      const listening = endpoints.filter((e) => BigInt(e._since) < event.position);
      if (listening.length === 0) continue;
      const [before, after] = await beforeAndAfter(event);
      for (const draft of webhookEventsOf(event.type, before, after)) {
        deliveries.push(...planned(event, draft, listening.filter((e) => subscribesTo(e.events, draft.type))));
      }
    }
    await write(deliveries);
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
    await recordAttempt(
      deliveryId,
      { attempt: job.attempt, at: now.toISOString(), status_code: statusCode, error, duration_ms: durationMs },
      succeeded ? 'succeeded' : last ? 'failed' : 'pending',
      succeeded || last || nextWait === undefined ? null : new Date(started + durationMs + nextWait * 1000).toISOString(),
    );
    logger.info(
      { deliveryId, endpointId, eventId, eventType: job.data.eventType, organisationId: job.data.organisationId, attempt: job.attempt, statusCode, error, ms: durationMs, outcome: succeeded ? 'delivered' : last ? 'failed' : 'retrying' },
      'webhook delivery attempt',
    );
    if (!succeeded) throw new Error(error ?? 'delivery failed');
  };

  return {
    queue,
    follower,
    /** Takes delivery jobs in this process (every process shares them); the follower runs under a lease. */
    processJobs: () => queue.process(deliver, { concurrency: 8 }),
  };
};
