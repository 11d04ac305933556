import request from 'supertest';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { billingOrganisation } from '../support/catalogue-fixtures';
import { createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('operators read what organisations hold: the lists and objects /v1 serves, meters, API keys, organisations', () => {
  // Each thing made a minute after the last, so newest first is one order.
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  const minuteLater = () => clock.set(new Date(clock.now().getTime() + 60_000));
  let service: TestService;
  let orgId: string;
  let otherOrgId: string;
  let auth: { Authorization: string };
  let subscriptionId: string;
  let invoiceId: string;
  beforeAll(async () => {
    service = await startTestService(tempDir('admin-reads'), { clock });
    ({ orgId, auth } = await billingOrganisation(service, ['subscriptions:write', 'subscriptions:read', 'customers:write', 'customers:read', 'catalogue:read', 'invoices:read', 'credit_notes:read']));
    minuteLater();
    otherOrgId = (await createOrganisation(service, { name: 'Other Ltd' })).id;
    await openSandbox(service, otherOrgId);
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'reads-1').send({ customer_code: 'C1', plan_code: 'seats', units: 3 });
    expect(created.status).toBe(201);
    subscriptionId = created.body.id;
    invoiceId = created.body.invoice.id;
    const decreased = await request(service.app).post(`/v1/subscriptions/${subscriptionId}/units`).set(auth).send({ units: 2, prorate: true, effective_date: '2026-03-25' });
    expect(decreased.body).toMatchObject({ change: { credit_note: { object: 'credit_note' } } });
  });
  afterAll(async () => {
    await service.close();
  });

  const admin = (path: string) => request(service.app).get(`/admin/v1/organisations/${orgId}${path}`).set(service.admin);
  const v1 = (path: string) => request(service.app).get(`/v1${path}`).set(auth);

  it.each([
    ['/customers', '?status=active&code=C1'],
    ['/customers', '?email=NOBODY@EXAMPLE.COM'],
    ['/plans', '?status=active&limit=2'],
    ['/charges', ''],
    ['/subscriptions', '?customer_code=C1&status=active,pending'],
    ['/invoices', '?limit=1'],
    ['/credit_notes', ''],
  ])('GET %s%s answers what /v1 answers for the same query', async (path, query) => {
    const [operator, integrator] = await Promise.all([admin(`${path}${query}`), v1(`${path}${query}`)]);
    expect(integrator.status).toBe(200);
    expect(operator.status).toBe(200);
    expect(operator.body).toEqual(integrator.body);
  });

  it('serves each object as /v1 does, and pages from a cursor', async () => {
    for (const path of [`/invoices/${invoiceId}`, `/customers/${(await v1('/customers')).body.data[0].id}`]) {
      const [operator, integrator] = await Promise.all([admin(path), v1(path)]);
      expect(operator.status).toBe(200);
      expect(operator.body).toEqual(integrator.body);
    }
    const first = await admin('/plans?limit=2');
    expect(first.body.has_more).toBe(true);
    const next = await admin(`/plans?limit=2&starting_after=${first.body.data[1].id}`);
    expect(next.body.data.map((plan: { id: string }) => plan.id)).toEqual((await v1(`/plans?limit=2&starting_after=${first.body.data[1].id}`)).body.data.map((plan: { id: string }) => plan.id));
  });

  it('lists meters, which /v1 does not serve, and retrieves one', async () => {
    const meters = await admin('/meters');
    expect(meters.status).toBe(200);
    expect(meters.body.data.map((meter: { code: string }) => meter.code).sort()).toEqual(['api_calls', 'storage_gb']);
    const one = await admin(`/meters/${meters.body.data[0].id}`);
    expect(one.body).toEqual(meters.body.data[0]);
  });

  it('lists API keys without their secrets', async () => {
    minuteLater();
    const second = await createKey(service, orgId, ['customers:read']);
    const keys = await admin('/api_keys');
    expect(keys.status).toBe(200);
    expect(keys.body.data).toHaveLength(2);
    expect(keys.body.data[0]).toMatchObject({ id: second.id, object: 'api_key', scopes: ['customers:read'], status: 'active', last4: second.key.slice(-4) });
    expect(JSON.stringify(keys.body)).not.toContain(second.key);
    expect(Object.keys(keys.body.data[0]).filter((field) => field.startsWith('_') || field === 'key')).toEqual([]);
    expect((await admin(`/api_keys/${second.id}`)).body).toEqual(keys.body.data[0]);
  });

  it('refuses another organisation’s object, an unknown organisation and a bad filter as /v1 does', async () => {
    expectError(await request(service.app).get(`/admin/v1/organisations/${otherOrgId}/invoices/${invoiceId}`).set(service.admin), 404, 'not_found', 'invoice_not_found', 'id');
    expectError(await request(service.app).get('/admin/v1/organisations/org_missing/customers').set(service.admin), 404, 'not_found', 'organisation_not_found', 'org');
    const [operator, integrator] = await Promise.all([admin('/subscriptions?status=paused'), v1('/subscriptions?status=paused')]);
    expectError(operator, 422, 'invalid_request_error', 'invalid_parameter', 'status');
    expect(operator.body.error.message).toBe(integrator.body.error.message);
    expect((await request(service.app).get(`/admin/v1/organisations/${orgId}/customers`)).status).toBe(401);
    const empty = await request(service.app).get(`/admin/v1/organisations/${otherOrgId}/subscriptions`).set(service.admin);
    expect(empty.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('lists organisations newest first, live or sandboxes alone', async () => {
    const all = await request(service.app).get('/admin/v1/organisations').set(service.admin);
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(3);
    const live = await request(service.app).get('/admin/v1/organisations?livemode=true').set(service.admin);
    expect(live.body.data.map((organisation: { id: string }) => organisation.id)).toEqual([otherOrgId, orgId]);
    const sandboxes = await request(service.app).get('/admin/v1/organisations?livemode=false&limit=1').set(service.admin);
    expect(sandboxes.body).toMatchObject({ data: [{ livemode: false, live_organisation: otherOrgId }], has_more: false });
    expectError(await request(service.app).get('/admin/v1/organisations?livemode=yes').set(service.admin), 422, 'invalid_request_error', 'invalid_parameter', 'livemode');
  });
});
