import request from 'supertest';
import { expectError } from '../support/api-assertions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { until } from '../support/until';
import { type Receiver, startReceiver, verifySignature } from '../support/webhook-receiver';

/** DNS answers the test controls: a name resolves to what the map says, or not at all. */
const dns = new Map<string, string[]>([
  ['hooks.example.com', ['93.184.216.34']],
  ['inside.example.com', ['93.184.216.34', '10.1.2.3']],
  ['v6inside.example.com', ['fd12::1']],
  ['metadata.example.com', ['169.254.169.254']],
  ['rebind.example.com', ['93.184.216.34']],
]);

describe('webhooks: endpoints, fan-out, signatures, retries', () => {
  let service: TestService;
  let receiver: Receiver;
  let orgId: string;
  let tenantId: string;
  let auth: { Authorization: string };
  let n = 0;
  beforeAll(async () => {
    receiver = await startReceiver();
    service = await startTestService(tempDir('webhooks'), {
      env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2,0.4' },
      workers: { poller: { intervalSeconds: 3600 }, accountingSync: { retryBaseMs: 100, raisedDelayMs: 300 } },
      resolver: (host) => Promise.resolve(dns.get(host) ?? null),
    });
    orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    tenantId = await connectAccounting(service, orgId);
    await defineCatalogue(service, orgId);
    auth = (await createKey(service, orgId, ['subscriptions:write', 'invoices:read', 'customers:write'])).auth;
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Customer One' });
  });
  afterAll(async () => {
    await service.close();
    await receiver.close();
  });

  const endpoints = (org = orgId) => `/admin/v1/organisations/${org}/webhook_endpoints`;
  const create = (body: object, org = orgId) => request(service.app).post(endpoints(org)).set(service.admin).send({ events: ['*'], ...body });
  const subscribe = () => request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `hook-${++n}`).send({ customer_code: 'C1', plan_code: 'flat' });
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  const deliveries = async (endpointId: string) => (await request(service.app).get(`${endpoints()}/${endpointId}/deliveries`).set(service.admin)).body.data;

  describe('endpoint configuration rules, checked when saved', () => {
    const long = `https://hooks.example.com/${'a'.repeat(2000)}`;
    const cases: [string, RegExp][] = [
      ['http://hooks.example.com/x', /https/],
      ['https://hooks.example.com:8443/x', /port 443/],
      ['https://user:secret@hooks.example.com/x', /credentials/],
      ['https://hooks.example.com/x#part', /fragment/],
      [long, /2000/],
      ['not a url', /valid/],
      ['https://localhost/x', /localhost/],
      ['https://127.0.0.1/x', /loopback/],
      ['https://10.0.0.1/x', /private/],
      ['https://172.16.5.4/x', /private/],
      ['https://192.168.0.10/x', /private/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['https://100.64.0.1/x', /shared/],
      ['https://0.0.0.0/x', /this network/],
      ['https://2130706433/x', /loopback/],
      ['https://[::1]/x', /loopback/],
      ['https://[::ffff:127.0.0.1]/x', /loopback/],
      ['https://[fe80::1]/x', /link-local/],
      ['https://[fd00::1]/x', /unique local/],
      ['https://inside.example.com/x', /resolves to 10\.1\.2\.3, private/],
      ['https://v6inside.example.com/x', /resolves to fd12::1, unique local/],
      ['https://metadata.example.com/x', /resolves to 169\.254\.169\.254, link-local/],
      ['http://127.0.0.1/x', /https/],
    ];
    it.each(cases.map(([url, message]) => [url.length > 100 ? `a URL of ${url.length} characters` : url, url, message] as const))('refuses %s', async (_title, url, message) => {
      const refused = await create({ url });
      expectError(refused, 422, 'invalid_request_error', 'invalid_parameter', 'url');
      expect(refused.body.error.message).toMatch(message);
    });

    it('refuses a long description, unknown event types and an empty list', async () => {
      expectError(await create({ url: 'https://hooks.example.com/x', description: 'd'.repeat(256) }), 422, 'invalid_request_error', 'invalid_parameter', 'description');
      expectError(await create({ url: 'https://hooks.example.com/x', events: ['invoice.paid', 'invoice.exploded'] }), 422, 'invalid_request_error', 'invalid_parameter', 'events.1');
      expectError(await create({ url: 'https://hooks.example.com/x', events: [] }), 422, 'invalid_request_error', 'invalid_parameter', 'events');
    });

    it('accepts a public https URL, shows the whsec_ secret once, and refuses an eleventh endpoint', async () => {
      const other = (await createOrganisation(service)).id;
      const created = await create({ url: 'https://hooks.example.com/x', description: 'Main', events: ['invoice.paid'] }, other);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^we_/),
        object: 'webhook_endpoint',
        url: 'https://hooks.example.com/x',
        description: 'Main',
        events: ['invoice.paid'],
        status: 'enabled',
        livemode: true,
        created: expect.any(String),
        secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      });
      const read = await request(service.app).get(`${endpoints(other)}/${created.body.id}`).set(service.admin);
      expect(read.body.secret).toBeUndefined();
      for (let i = 2; i <= 10; i++) expect((await create({ url: `https://hooks.example.com/${i}` }, other)).status).toBe(201);
      expectError(await create({ url: 'https://hooks.example.com/11' }, other), 409, 'conflict', 'webhook_endpoint_limit_reached');
      // Editing checks the same rules.
      expectError(
        await request(service.app).patch(`${endpoints(other)}/${created.body.id}`).set(service.admin).send({ url: 'https://inside.example.com/x' }),
        422,
        'invalid_request_error',
        'invalid_parameter',
        'url',
      );
    });
  });

  describe('deliveries', () => {
    let endpointId: string;
    let secret: string;
    beforeAll(async () => {
      const created = await create({ url: receiver.url('/main'), description: 'Receiver' });
      expect(created.status).toBe(201);
      endpointId = created.body.id;
      secret = created.body.secret;
    });

    it('announces later changes only, with the exact headers and a signature a receiver verifies', async () => {
      const created = await subscribe();
      const invoiceId = created.body.invoice.id as string;
      const got = await until('three events', () => at('/main').length >= 3 && at('/main'));
      const types = got.map((r) => r.body.type).sort();
      expect(types).toEqual(['invoice.created', 'invoice.updated', 'subscription.created']);
      // The customer existed before the endpoint: no customer.created.
      for (const delivery of got) {
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['user-agent']).toBe('Service-Webhooks/1');
        expect(delivery.headers['service-event-id']).toBe(delivery.body.id);
        expect(delivery.headers['service-delivery-id']).toMatch(/^whd_/);
        expect(delivery.headers['service-delivery-attempt']).toBe('1');
        expect(delivery.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        expect(verifySignature(delivery.headers['service-signature'] as string, delivery.raw, secret)).toBe(true);
        expect(verifySignature(delivery.headers['service-signature'] as string, delivery.raw, 'whsec_wrong')).toBe(false);
        expect(verifySignature(delivery.headers['service-signature'] as string, `${delivery.raw} `, secret)).toBe(false);
        expect(delivery.body).toMatchObject({ id: expect.stringMatching(/^evt_/), object: 'event', livemode: true, created: expect.stringMatching(/Z$/) });
      }
      const updated = got.find((r) => r.body.type === 'invoice.updated')!.body;
      expect(updated.data).toEqual({
        object: { id: invoiceId, object: 'invoice', status: 'draft', customer: created.body.customer, subscription: created.body.id, number: expect.any(String), total: expect.any(String), accounting_sync_status: 'synced' },
        previous_attributes: { status: 'not_in_external', number: null, total: '49.9900', accounting_sync_status: 'pending' },
      });
      expect((got.find((r) => r.body.type === 'invoice.created')!.body.data as Record<string, unknown>).previous_attributes).toBeUndefined();
      // A stale timestamp is refused by the receiver's rule.
      const old = got[0]!;
      expect(verifySignature(old.headers['service-signature'] as string, old.raw, secret, Math.floor(Date.now() / 1000) + 301)).toBe(false);
    });

    it('combines the changes seen in one poll: one invoice.paid whose previous status is draft', async () => {
      const created = await subscribe();
      const invoice = created.body.invoice;
      await until('the invoice is synced and announced', () => at('/main').some((r) => r.body.type === 'invoice.updated' && (r.body.data as { object: { id: string } }).object.id === invoice.id));
      const ledgerId = invoice.accounting.invoice_id as string;
      await accountingControl(service, `/tenants/${tenantId}/invoices/${ledgerId}/approve`);
      await accountingControl(service, `/tenants/${tenantId}/invoices/${ledgerId}/pay`);
      await service.workers!.poll();
      const forInvoice = () => at('/main').filter((r) => (r.body.data as { object: { id: string } }).object.id === invoice.id);
      const paid = await until('invoice.paid', () => forInvoice().find((r) => r.body.type === 'invoice.paid'));
      expect((paid.body.data as { previous_attributes: { status: string } }).previous_attributes.status).toBe('draft');
      expect((paid.body.data as { object: { status: string } }).object.status).toBe('paid');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(forInvoice().map((r) => r.body.type).sort()).toEqual(['invoice.created', 'invoice.paid', 'invoice.updated']);
    });

    it('announces ending at period end and restoring as subscription.updated, and ending now as subscription.ended', async () => {
      const sub = (await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `hook-${++n}`).send({ customer_code: 'C1', plan_code: 'seats', units: 5 })).body;
      const action = (name: string, body: object) => request(service.app).post(`/v1/subscriptions/${sub.id}/${name}`).set(auth).send(body);
      const forSubscription = () => at('/main').filter((r) => (r.body.data as { object: { id: string } }).object.id === sub.id);
      expect((await action('end', { when: 'period_end' })).status).toBe(200);
      expect((await action('restore', {})).status).toBe(200);
      expect((await action('end', { when: 'now' })).status).toBe(200);
      const got = await until('four subscription events', () => forSubscription().length >= 4 && forSubscription());
      const byType = (type: string) => got.filter((r) => r.body.type === type).map((r) => r.body.data as { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> });
      expect(byType('subscription.created')).toHaveLength(1);
      const updates = byType('subscription.updated');
      expect(updates.map((u) => u.previous_attributes!.cancel_at_period_end).sort()).toEqual([false, true]);
      const [ended] = byType('subscription.ended');
      expect(ended).toMatchObject({ object: { id: sub.id, status: 'ended' }, previous_attributes: { status: 'active' } });
    });

    it('retries on the schedule (3xx and 5xx are failures, redirects not followed) and keeps every attempt', async () => {
      const retrying = await create({ url: receiver.url('/flaky'), events: ['invoice.paid'] });
      receiver.answer('/flaky', [302, 500]);
      await request(service.app).post(`${endpoints()}/${retrying.body.id}/test`).set(service.admin).send({}).expect(202);
      const got = await until('three attempts', () => at('/flaky').length >= 3 && at('/flaky'));
      expect(got.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2', '3']);
      expect(new Set(got.map((r) => r.headers['service-delivery-id'])).size).toBe(1);
      expect(new Set(got.map((r) => r.body.id)).size).toBe(1);
      expect(got[0]!.body.type).toBe('webhook.test');
      // WEBHOOK_RETRY_SCHEDULE=0.2,0.4 with ±10 % jitter.
      expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(170);
      expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(350);
      expect(at('/elsewhere')).toHaveLength(0);
      const [delivery] = await until('the delivery succeeded', async () => {
        const list = await deliveries(retrying.body.id);
        return list[0]?.status === 'succeeded' && list;
      });
      expect(delivery.attempts.map((a: { status_code: number; error: string | null }) => [a.status_code, a.error])).toEqual([
        [302, 'redirect (302) not followed'],
        [500, 'status 500'],
        [200, null],
      ]);
    });

    it('fails a delivery after the last attempt of the schedule', async () => {
      const down = await create({ url: receiver.url('/down'), events: ['invoice.paid'] });
      receiver.answer('/down', [503, 503, 503]);
      await request(service.app).post(`${endpoints()}/${down.body.id}/test`).set(service.admin).send({}).expect(202);
      const [delivery] = await until('the delivery failed', async () => {
        const list = await deliveries(down.body.id);
        return list[0]?.status === 'failed' && list;
      });
      expect(delivery.attempts).toHaveLength(3);
      expect(delivery.next_attempt_at).toBeNull();
    });

    it('signs with the new and the old secret for 24 hours after a roll', async () => {
      const rolled = await request(service.app).post(`${endpoints()}/${endpointId}/roll_secret`).set(service.admin).send({});
      expect(rolled.status).toBe(200);
      expect(rolled.body.secret).toMatch(/^whsec_/);
      expect(rolled.body.secret).not.toBe(secret);
      const before = at('/main').length;
      await request(service.app).post(`${endpoints()}/${endpointId}/test`).set(service.admin).send({}).expect(202);
      const test = await until('the test event', () => at('/main').slice(before).find((r) => r.body.type === 'webhook.test'));
      expect(test.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(verifySignature(test.headers['service-signature'] as string, test.raw, rolled.body.secret)).toBe(true);
      expect(verifySignature(test.headers['service-signature'] as string, test.raw, secret)).toBe(true);
      expect(test.body.data).toEqual({ object: { id: endpointId, object: 'webhook_endpoint' } });
    });

    it('sends a test event only to an enabled endpoint, and turns off and on', async () => {
      const off = await request(service.app).patch(`${endpoints()}/${endpointId}`).set(service.admin).send({ status: 'disabled' });
      expect(off.body.status).toBe('disabled');
      expectError(await request(service.app).post(`${endpoints()}/${endpointId}/test`).set(service.admin).send({}), 409, 'conflict', 'webhook_endpoint_disabled');
      const on = await request(service.app).patch(`${endpoints()}/${endpointId}`).set(service.admin).send({ status: 'enabled', description: 'Back' });
      expect(on.body).toMatchObject({ status: 'enabled', description: 'Back' });
    });

    it('checks the resolved addresses again at every delivery', async () => {
      const rebound = await create({ url: 'https://rebind.example.com/hook' });
      expect(rebound.status).toBe(201);
      dns.set('rebind.example.com', ['127.0.0.1']);
      await request(service.app).post(`${endpoints()}/${rebound.body.id}/test`).set(service.admin).send({}).expect(202);
      const [delivery] = await until('an attempt', async () => {
        const list = await deliveries(rebound.body.id);
        return list[0]?.attempts.length > 0 && list;
      });
      expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/127\.0\.0\.1, loopback .*refused/) });
    });

    it('a sandbox reset removes the sandbox’s past deliveries and keeps its endpoint', async () => {
      // The live organisation has a delivery of its own, whichever tests ran before.
      await request(service.app).post(`${endpoints()}/${endpointId}/test`).set(service.admin).send({}).expect(202);
      const live = await until('a live delivery', async () => {
        const list = await deliveries(endpointId);
        return list.length > 0 && list;
      });
      const sandboxId = (await request(service.app).post(`/admin/v1/organisations/${orgId}/sandbox`).set(service.admin).send({ copy: { catalogue: false } })).body.id as string;
      const endpoint = await create({ url: receiver.url('/sandbox') }, sandboxId);
      expect(endpoint.status).toBe(201);
      const sandboxDeliveries = async () => (await request(service.app).get(`${endpoints(sandboxId)}/${endpoint.body.id}/deliveries`).set(service.admin)).body.data as { event_type: string }[];
      await request(service.app).post(`${endpoints(sandboxId)}/${endpoint.body.id}/test`).set(service.admin).send({}).expect(202);
      await until('a sandbox delivery', async () => (await sandboxDeliveries()).length === 1);
      expect((await request(service.app).post(`/admin/v1/organisations/${sandboxId}/reset`).set(service.admin).send({ copy: { catalogue: false } })).status).toBe(200);
      await until('the sandbox history is gone', async () => (await sandboxDeliveries()).length === 0);
      expect((await request(service.app).get(endpoints(sandboxId)).set(service.admin)).body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.body.id]);
      // The live organisation's deliveries stay.
      expect((await deliveries(endpointId)).length).toBeGreaterThanOrEqual(live.length);
    });

    it('deletes an endpoint with its delivery history', async () => {
      const doomed = await create({ url: receiver.url('/doomed') });
      await request(service.app).post(`${endpoints()}/${doomed.body.id}/test`).set(service.admin).send({}).expect(202);
      await until('a delivery', async () => (await deliveries(doomed.body.id)).length === 1);
      const deleted = await request(service.app).delete(`${endpoints()}/${doomed.body.id}`).set(service.admin);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: doomed.body.id, object: 'webhook_endpoint', deleted: true });
      expectError(await request(service.app).get(`${endpoints()}/${doomed.body.id}/deliveries`).set(service.admin), 404, 'not_found', 'webhook_endpoint_not_found');
      await until('the history is gone', async () => (await service.services.readStore.findAll('webhook_deliveries', [{ field: 'endpoint', eq: doomed.body.id }])).length === 0);
    });
  });
});
