import request from 'supertest';
import { expectError } from '../support/api-assertions';
import { startTestService, type TestService } from '../support/test-service';

describe('admin API: organisations', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.close();
  });

  const create = (body: object) =>
    request(service.app).post('/admin/v1/organisations').set(service.admin).send(body);

  it('creates a live organisation with the defaults and reads it back at once', async () => {
    const created = await create({ name: 'Acme Ltd', timezone: 'Europe/London', default_currency: 'GBP' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^org_[0-9A-Za-z]{24}$/),
      object: 'organisation',
      name: 'Acme Ltd',
      timezone: 'Europe/London',
      default_currency: 'GBP',
      setup_mode: false,
      can_create_accounting_contacts: false,
      livemode: true,
      renewal_lead_days: 7,
      usage_grace_days: 1,
      payment_terms_days: 14,
      unit_change_document: 'separate',
      sandbox: null,
      live_organisation: null,
      accounting: { connected: false, tenant_id: null, revenue_account: null, usage_revenue_account: null },
      plan_limits: { customers: null, subscriptions: null },
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const read = await request(service.app).get(`/admin/v1/organisations/${created.body.id}`).set(service.admin);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('changes settings with PATCH and records the change in the log', async () => {
    const { body: org } = await create({ name: 'Beta', timezone: 'America/New_York', default_currency: 'USD' });
    const patched = await request(service.app)
      .patch(`/admin/v1/organisations/${org.id}`)
      .set(service.admin)
      .send({ setup_mode: true, payment_terms_days: 30, unit_change_document: 'amend' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ setup_mode: true, payment_terms_days: 30, unit_change_document: 'amend', name: 'Beta' });
    const events = await service.services.store.readStream(`organisation-${org.id}`);
    expect(events.map((e) => e.type)).toEqual(['OrganisationCreated', 'OrganisationSettingsChanged']);
    expect(events[1]!.metadata).toMatchObject({ organisationId: org.id, livemode: true, actor: { type: 'admin' } });
    expect(events[1]!.metadata.requestId).toBe(patched.headers['request-id']);
  });

  it('refuses a missing or wrong admin token', async () => {
    expectError(await request(service.app).get('/admin/v1/organisations/org_x'), 401, 'authentication_error', 'invalid_api_key');
    expectError(
      await request(service.app).get('/admin/v1/organisations/org_x').set('Authorization', 'Bearer nope'),
      401,
      'authentication_error',
      'invalid_api_key',
    );
  });

  it.each([
    [{ timezone: 'Europe/London', default_currency: 'GBP' }, 'name'],
    [{ name: 'X', timezone: 'Mars/Base', default_currency: 'GBP' }, 'timezone'],
    [{ name: 'X', timezone: 'Europe/London', default_currency: 'gbp' }, 'default_currency'],
    [{ name: 'X', timezone: 'Europe/London', default_currency: 'GBP', renewal_lead_days: -1 }, 'renewal_lead_days'],
    [{ name: 'X', timezone: 'Europe/London', default_currency: 'GBP', colour: 'red' }, 'colour'],
  ])('refuses %j with 422 naming %s, and creates nothing', async (body, param) => {
    const before = await service.services.store.headPosition();
    expectError(await create(body), 422, 'invalid_request_error', 'invalid_parameter', param);
    expect(await service.services.store.headPosition()).toBe(before);
  });

  it('answers 404 for an unknown organisation', async () => {
    expectError(
      await request(service.app).get('/admin/v1/organisations/org_missing').set(service.admin),
      404,
      'not_found',
      'organisation_not_found',
    );
    expectError(
      await request(service.app).patch('/admin/v1/organisations/org_missing').set(service.admin).send({ name: 'Y' }),
      404,
      'not_found',
      'organisation_not_found',
    );
  });

  it('answers 400 invalid_json for a malformed body and 413 for one over 100,000 characters', async () => {
    expectError(
      await request(service.app)
        .post('/admin/v1/organisations')
        .set(service.admin)
        .set('Content-Type', 'application/json')
        .send('{"name": '),
      400,
      'invalid_request_error',
      'invalid_json',
    );
    expectError(
      await create({ name: 'X', timezone: 'Europe/London', default_currency: 'GBP', pad: 'é'.repeat(100_001) }),
      413,
      'invalid_request_error',
      'payload_too_large',
    );
  });

  it('answers 404 unknown_endpoint for a path outside the API', async () => {
    expectError(await request(service.app).get('/admin/v1/nothing').set(service.admin), 404, 'not_found', 'unknown_endpoint');
  });
});
