import request from 'supertest';
import { billingOrganisation } from '../support/catalogue-fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { until } from '../support/until';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

/** Every sample line of a scrape: its metric's name, its labels and its value. */
const samples = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, name, labels = '', value] = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      return { name: name!, labels: Object.fromEntries([...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, v]) => [key!, v!])), value: Number(value) };
    });

const valueOf = (text: string, name: string, labels: Record<string, string> = {}): number | undefined =>
  samples(text).find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;

/** An id of any kind the service makes (a type prefix, then base62), a uuid, or a run of digits: none belongs in a label. */
const ID = /(^|[^a-z])(org|cus|plan|chg|mtr|sub|inv|cn|evt|whd|we|key|req|il)_[A-Za-z0-9]|[0-9a-f]{8}-[0-9a-f]{4}-|\d{5,}/;

describe('GET /metrics', () => {
  let service: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    service = await startTestService(tempDir('metrics'), {
      env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.1' },
      workers: { poller: { intervalSeconds: 3600 } },
    });
  });
  afterAll(async () => {
    await service.close();
    await receiver.close();
  });

  const scrape = async () => {
    const response = await request(service.app).get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return response.text;
  };

  it('counts a mixed workload by route pattern, type and outcome, no label holding an id', async () => {
    const { orgId, auth } = await billingOrganisation(service, ['subscriptions:write', 'subscriptions:read', 'customers:write', 'usage:write']);
    receiver.answer('/failing', Array<number>(100).fill(500));
    for (const path of ['/hook', '/failing']) {
      await request(service.app).post(`/admin/v1/organisations/${orgId}/webhook_endpoints`).set(service.admin).send({ url: receiver.url(path), events: ['*'] }).expect(201);
    }
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'metrics-1').send({ customer_code: 'C1', plan_code: 'metered' });
    expect(created.status).toBe(201);
    const sub = (created.body as { id: string }).id;
    const usage = await request(service.app)
      .post('/v1/usage_events')
      .set(auth)
      .send({ events: [1, 2, 1].map((n) => ({ event_id: `m-${n}`, subscription: sub, meter_code: 'api_calls', quantity: '1' })).concat([{ event_id: 'm-3', subscription: sub, meter_code: 'nope', quantity: '1' }]) });
    expect(usage.body).toMatchObject({ created: 2, duplicates: 1, rejected: 1 });
    await request(service.app).get(`/v1/subscriptions/${sub}`).set(auth).expect(200);
    await request(service.app).get('/v1/subscriptions/sub_doesnotexist0000000').set(auth).expect(404);
    await request(service.app).get(`/v1/subscriptions/${sub}`).expect(401);
    await request(service.app).get(`/v1/nothing/${sub}/here`).set(auth).expect(404);
    await request(service.app).get(`/admin/v1/organisations/${orgId}/streams/${sub}/events`).set(service.admin).expect(200);
    // The failing endpoint's first attempt is retried, its second fails for good (a schedule of one wait).
    await until('both endpoints called, the failing one twice', () => receiver.received.filter((r) => r.path === '/failing').length >= 2 && receiver.received.some((r) => r.path === '/hook'));

    const text = await until('the failed delivery counted', async () => {
      const scraped = await scrape();
      return (valueOf(scraped, 'billing_webhook_deliveries_total', { outcome: 'failed' }) ?? 0) >= 1 && scraped;
    });

    expect(valueOf(text, 'billing_http_request_duration_seconds_count', { method: 'GET', route: '/v1/subscriptions/:id', status: '200' })).toBe(1);
    expect(valueOf(text, 'billing_http_request_duration_seconds_count', { method: 'GET', route: '/v1/subscriptions/:id', status: '404' })).toBe(1);
    // Refused before a route matched: labelled as such, never with the path.
    expect(valueOf(text, 'billing_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '401' })).toBe(1);
    expect(valueOf(text, 'billing_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(valueOf(text, 'billing_events_appended_total', { type: 'SubscriptionCreated' })).toBe(1);
    expect(valueOf(text, 'billing_events_appended_total', { type: 'InvoiceRaised' })).toBe(1);
    expect(valueOf(text, 'billing_accounting_pushes_total', { document: 'invoice', outcome: 'synced' })).toBe(1);
    expect(valueOf(text, 'billing_usage_events_total', { outcome: 'accepted' })).toBe(2);
    expect(valueOf(text, 'billing_usage_events_total', { outcome: 'duplicate' })).toBe(1);
    expect(valueOf(text, 'billing_usage_events_total', { outcome: 'rejected' })).toBe(1);
    expect(valueOf(text, 'billing_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'billing_webhook_deliveries_total', { outcome: 'retry' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'billing_projection_lag_events', { projection: 'subscriptions' })).toBe(0);
    expect(valueOf(text, 'billing_jobs_waiting', { queue: 'accounting-push' })).toBe(0);
    expect(valueOf(text, 'billing_jobs_oldest_age_seconds', { queue: 'webhook-delivery' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'billing_scheduler_due_steps')).toBe(0);
    expect(valueOf(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);

    const labelled = samples(text).flatMap((sample) => Object.values(sample.labels));
    expect(labelled.length).toBeGreaterThan(50);
    expect(labelled.filter((value) => ID.test(value))).toEqual([]);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(tempDir('metrics-token'), { env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
  });
  afterAll(async () => {
    await service.close();
  });

  it('takes the token as a Bearer token and refuses without it, from loopback too', async () => {
    const refused = await request(service.app).get('/metrics');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_metrics_token' });
    expect((await request(service.app).get('/metrics').set('Authorization', 'Bearer metrics-token-wrong-456789')).status).toBe(401);
    const scraped = await request(service.app).get('/metrics').set('Authorization', 'Bearer metrics-token-0123456789');
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('# TYPE billing_events_appended_total counter');
  });
});
