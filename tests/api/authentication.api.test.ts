import request from 'supertest';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { createKey, createOrganisation, openSandbox, type OrganisationFixture } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('public API: authentication and scopes', () => {
  const clock = fixedClock(new Date('2026-03-01T12:00:00.000Z'));
  let service: TestService;
  let live: OrganisationFixture;
  let sandbox: OrganisationFixture;
  beforeAll(async () => {
    service = await startTestService(tempDir('auth'), { clock });
    live = await createOrganisation(service, { name: 'Live Co', setup_mode: true });
    sandbox = await openSandbox(service, live.id);
  });
  afterAll(async () => {
    await service.close();
  });

  const organisation = (headers: Record<string, string>) => request(service.app).get('/v1/organisation').set(headers);

  it('answers GET /v1/organisation with every field of the Organisation for any valid key', async () => {
    const liveKey = await createKey(service, live.id, []);
    expect(liveKey.key).toMatch(/^service_live_[0-9A-Za-z]{32}$/);
    const response = await organisation(liveKey.auth);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: live.id,
      object: 'organisation',
      name: 'Live Co',
      timezone: 'Europe/London',
      default_currency: 'GBP',
      setup_mode: true,
      can_create_accounting_contacts: false,
      livemode: true,
    });
    const testKey = await createKey(service, sandbox.id, ['customers:read']);
    expect(testKey.key).toMatch(/^service_test_[0-9A-Za-z]{32}$/);
    const sandboxResponse = await organisation(testKey.auth);
    expect(sandboxResponse.body).toMatchObject({ id: sandbox.id, livemode: false, setup_mode: false, name: 'Live Co' });
  });

  it.each([
    ['no header', {}],
    ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed key', { Authorization: 'Bearer service_live_short' }],
    ['an unknown key', { Authorization: `Bearer service_live_${'A'.repeat(32)}` }],
  ])('refuses %s with 401 invalid_api_key', async (_label, headers) => {
    expectError(await organisation(headers), 401, 'authentication_error', 'invalid_api_key');
  });

  it('checks the key before reading the body: no valid key is 401 invalid_api_key whatever the body', async () => {
    const unknown = { Authorization: `Bearer service_live_${'A'.repeat(32)}` };
    const raw = (headers: Record<string, string>, text: string) =>
      request(service.app).post('/v1/customers').set(headers).set('Content-Type', 'application/json').send(text);
    expectError(await raw(unknown, '{"code": "X",'), 401, 'authentication_error', 'invalid_api_key');
    expectError(await raw({}, '{"code": "X",'), 401, 'authentication_error', 'invalid_api_key');
    expectError(await raw(unknown, JSON.stringify({ name: 'x'.repeat(500_000) })), 401, 'authentication_error', 'invalid_api_key');
    const admin = await request(service.app).post('/admin/v1/organisations').set('Content-Type', 'application/json').send('{"name":');
    expectError(admin, 401, 'authentication_error', 'invalid_api_key');
  });

  it('checks the scope before reading the body: 403 insufficient_scope for a malformed body', async () => {
    const key = await createKey(service, live.id, []);
    const response = await request(service.app).post('/v1/customers').set(key.auth).set('Content-Type', 'application/json').send('{"code":');
    expectError(response, 403, 'permission_error', 'insufficient_scope');
  });

  it('refuses a revoked key with 401 api_key_revoked', async () => {
    const key = await createKey(service, live.id, []);
    expect((await organisation(key.auth)).status).toBe(200);
    const revoked = await request(service.app)
      .post(`/admin/v1/organisations/${live.id}/api_keys/${key.id}/revoke`)
      .set(service.admin)
      .send({});
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, object: 'api_key', status: 'revoked' });
    expect(revoked.body.key).toBeUndefined();
    expectError(await organisation(key.auth), 401, 'authentication_error', 'api_key_revoked');
  });

  it('refuses a key once its expiry has passed with 401 api_key_expired', async () => {
    const key = await createKey(service, live.id, [], { expires_at: '2026-03-01T13:00:00Z' });
    expect((await organisation(key.auth)).status).toBe(200);
    clock.advance(60 * 60 * 1000);
    expectError(await organisation(key.auth), 401, 'authentication_error', 'api_key_expired');
    clock.advance(-60 * 60 * 1000);
  });

  it('refuses a key used in the other mode with 403 api_key_mode_mismatch', async () => {
    const liveKey = await createKey(service, live.id, []);
    const testKey = await createKey(service, sandbox.id, []);
    const asTest = liveKey.key.replace('service_live_', 'service_test_');
    const asLive = testKey.key.replace('service_test_', 'service_live_');
    expectError(await organisation({ Authorization: `Bearer ${asTest}` }), 403, 'permission_error', 'api_key_mode_mismatch');
    expectError(await organisation({ Authorization: `Bearer ${asLive}` }), 403, 'permission_error', 'api_key_mode_mismatch');
  });

  it('answers 404 unknown_endpoint for a path outside the API once the key is valid', async () => {
    const key = await createKey(service, live.id, []);
    expectError(await request(service.app).get('/v1/nothing').set(key.auth), 404, 'not_found', 'unknown_endpoint');
    expectError(await request(service.app).get('/nothing'), 404, 'not_found', 'unknown_endpoint');
  });

  it('answers 500 internal_error without leaking the internal message', async () => {
    const key = await createKey(service, live.id, []);
    const get = service.services.readStore.get.bind(service.services.readStore);
    service.services.readStore.get = () => Promise.reject(new Error('database file /secret/path is corrupt'));
    try {
      const response = await organisation(key.auth);
      expectError(response, 500, 'api_error', 'internal_error');
      expect(JSON.stringify(response.body)).not.toMatch(/secret|corrupt|Error:|at /);
    } finally {
      service.services.readStore.get = get;
    }
  });

  describe('admin: API keys and sandboxes', () => {
    it('shows the secret only at creation and stores only its hash', async () => {
      const key = await createKey(service, live.id, ['customers:read', 'usage:write'], { name: 'Ops' });
      const events = await service.services.store.readStream(`api_key-${key.id}`);
      expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.toContain(key.key.slice('service_live_'.length));
      expect(events[0]!.data).toMatchObject({ scopes: ['customers:read', 'usage:write'], last4: key.key.slice(-4) });
    });

    it.each([
      [{ name: '', scopes: [] }, 'name'],
      [{ name: 'x', scopes: ['everything'] }, 'scopes.0'],
      [{ name: 'x', scopes: ['customers:read', 'customers:read'] }, 'scopes'],
      [{ name: 'x', scopes: [], expires_at: 'tomorrow' }, 'expires_at'],
      [{ name: 'x', scopes: [], expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x', scopes: [], admin: true }, 'admin'],
    ])('refuses key body %j with 422 naming %s', async (body, param) => {
      const response = await request(service.app).post(`/admin/v1/organisations/${live.id}/api_keys`).set(service.admin).send(body);
      expectError(response, 422, 'invalid_request_error', 'invalid_parameter', param);
    });

    it('answers 404 for revoking a key of another organisation', async () => {
      const other = await createOrganisation(service, { name: 'Other' });
      const key = await createKey(service, other.id, []);
      expectError(
        await request(service.app).post(`/admin/v1/organisations/${live.id}/api_keys/${key.id}/revoke`).set(service.admin).send({}),
        404,
        'not_found',
        'api_key_not_found',
      );
    });

    it('opens one sandbox per live organisation and links the two', async () => {
      const read = await request(service.app).get(`/admin/v1/organisations/${live.id}`).set(service.admin);
      expect(read.body.sandbox).toBe(sandbox.id);
      expect(sandbox).toMatchObject({ livemode: false, live_organisation: live.id, setup_mode: false, sandbox: null });
      expectError(
        await request(service.app).post(`/admin/v1/organisations/${live.id}/sandbox`).set(service.admin).send({}),
        409,
        'conflict',
        'sandbox_exists',
      );
      expectError(
        await request(service.app).post(`/admin/v1/organisations/${sandbox.id}/sandbox`).set(service.admin).send({}),
        422,
        'invalid_request_error',
        'invalid_parameter',
      );
    });

    it('records the copy options, ticking the ones an option needs', async () => {
      const other = await createOrganisation(service, { name: 'Copier' });
      const response = await request(service.app)
        .post(`/admin/v1/organisations/${other.id}/sandbox`)
        .set(service.admin)
        .send({ copy: { settings: false, catalogue: false, customers: false, subscriptions: true } });
      expect(response.status).toBe(201);
      const events = await service.services.store.readStream(`organisation-${other.id}`);
      expect(events.find((e) => e.type === 'SandboxOpened')?.data).toMatchObject({
        copy: { settings: true, catalogue: true, customers: true, subscriptions: true },
      });
    });

    it('records a sandbox reset with its copy options (ticking what they need), and refuses one on a live organisation', async () => {
      const reset = await request(service.app)
        .post(`/admin/v1/organisations/${sandbox.id}/reset`)
        .set(service.admin)
        .send({ copy: { settings: false, catalogue: false, subscriptions: true } });
      expect(reset.status).toBe(200);
      expect(reset.body.id).toBe(sandbox.id);
      const events = await service.services.store.readStream(`organisation-${sandbox.id}`);
      expect(events.find((e) => e.type === 'SandboxReset')).toMatchObject({
        data: { generation: 1, copy: { settings: true, catalogue: true, customers: true, subscriptions: true } },
      });
      expectError(
        await request(service.app).post(`/admin/v1/organisations/${live.id}/reset`).set(service.admin).send({}),
        422,
        'invalid_request_error',
        'invalid_parameter',
        'org',
      );
    });

    it('keeps Setup Mode off in a sandbox', async () => {
      expectError(
        await request(service.app).patch(`/admin/v1/organisations/${sandbox.id}`).set(service.admin).send({ setup_mode: true }),
        422,
        'invalid_request_error',
        'invalid_parameter',
        'setup_mode',
      );
    });
  });
});
