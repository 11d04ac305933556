import request from 'supertest';
import { expectError } from '../support/api-assertions';
import { defineCatalogue, planBodies, tiers } from '../support/catalogue-fixtures';
import { createKey, createOrganisation } from '../support/fixtures';
import { startTestService, type TestService } from '../support/test-service';

describe('catalogue: admin writes and public reads', () => {
  let service: TestService;
  let orgId: string;
  let auth: { Authorization: string };
  let catalogue: Awaited<ReturnType<typeof defineCatalogue>>;
  beforeAll(async () => {
    service = await startTestService();
    orgId = (await createOrganisation(service)).id;
    catalogue = await defineCatalogue(service, orgId);
    auth = (await createKey(service, orgId, ['catalogue:read'])).auth;
  });
  afterAll(async () => {
    await service.close();
  });

  const adminPost = (path: string, body: object) =>
    request(service.app).post(`/admin/v1/organisations/${orgId}/${path}`).set(service.admin).send(body);

  it('serves every field of a plan with money as 4-place strings', async () => {
    const response = await request(service.app).get(`/v1/plans/${catalogue.plans.per_unit!.id}`).set(auth);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: catalogue.plans.per_unit!.id,
      object: 'plan',
      code: 'seats',
      name: 'Seats',
      type: 'per_unit',
      interval: { unit: 'month', count: 1 },
      currency: 'GBP',
      price: '10.0000',
      minimum_units: 2,
      free_units: 1,
      unit_labels: { singular: 'seat', plural: 'seats' },
      allows_price_override: false,
      status: 'active',
      tiers: [],
      meters: [],
      created: expect.any(String),
    });
  });

  it('shows tiers and plan meters with their meter ids, names and rates', async () => {
    const { body: meters } = await request(service.app).get(`/v1/plans/${catalogue.plans.no_base_fee!.id}`).set(auth);
    expect(meters.price).toBe('0.0000');
    expect(meters.meters).toEqual([
      {
        meter: expect.stringMatching(/^mtr_/),
        meter_code: 'api_calls',
        name: 'API calls',
        unit_labels: { singular: 'call', plural: 'calls' },
        pricing_model: 'per_unit',
        price: '0.0015',
        included_units: 1000,
        minimum_units: 100,
        tiers: [],
      },
      expect.objectContaining({ meter_code: 'storage_gb', pricing_model: 'volume', price: null, included_units: null, tiers: expect.any(Array) }),
    ]);
    const { body: tiered } = await request(service.app).get(`/v1/plans/${catalogue.plans.tiered!.id}`).set(auth);
    expect(tiered.tiers).toEqual([
      { from_units: 1, to_units: 10, price: '5.0000' },
      { from_units: 11, to_units: 20, price: '4.0000' },
      { from_units: 21, to_units: null, price: '3.5000' },
    ]);
  });

  it('lists plans newest first with filters and paging', async () => {
    const all = await request(service.app).get('/v1/plans').set(auth);
    expect(all.body.object).toBe('list');
    expect(all.body.data.map((p: { code: string }) => p.code)).toEqual(['metered', 'stairs', 'volume', 'tiered', 'seats', 'flat']);
    const page1 = await request(service.app).get('/v1/plans?limit=4').set(auth);
    expect(page1.body.has_more).toBe(true);
    const page2 = await request(service.app).get(`/v1/plans?limit=4&starting_after=${page1.body.data[3].id}`).set(auth);
    expect(page2.body.data.map((p: { code: string }) => p.code)).toEqual(['seats', 'flat']);
    expect(page2.body.has_more).toBe(false);
    const byCode = await request(service.app).get('/v1/plans?code=tiered').set(auth);
    expect(byCode.body.data.map((p: { code: string }) => p.code)).toEqual(['tiered']);
    await request(service.app).patch(`/admin/v1/organisations/${orgId}/plans/${catalogue.plans.flat_fee!.id}`).set(service.admin).send({ status: 'legacy' });
    const legacy = await request(service.app).get('/v1/plans?status=legacy,inactive').set(auth);
    expect(legacy.body.data.map((p: { code: string }) => p.code)).toEqual(['flat']);
  });

  it.each([
    ['/v1/plans?status=archived', 'status'],
    ['/v1/plans?limit=0', 'limit'],
    ['/v1/plans?limit=101', 'limit'],
    ['/v1/plans?limit=ten', 'limit'],
    ['/v1/plans?colour=red', 'colour'],
    ['/v1/plans?starting_after=plan_unknown', 'starting_after'],
  ])('refuses %s with 422 naming %s', async (path, param) => {
    expectError(await request(service.app).get(path).set(auth), 422, 'invalid_request_error', 'invalid_parameter', param);
  });

  it('lists and retrieves charges', async () => {
    const list = await request(service.app).get('/v1/charges?status=active').set(auth);
    expect(list.body.data).toEqual([
      {
        id: catalogue.charge.id,
        object: 'charge',
        code: 'setup',
        name: 'Setup fee',
        description: 'One-off onboarding',
        currency: 'GBP',
        price: '99.5000',
        allows_price_override: false,
        status: 'active',
        created: expect.any(String),
      },
    ]);
    expectError(await request(service.app).get('/v1/charges/chg_missing').set(auth), 404, 'not_found', 'charge_not_found');
  });

  it('keeps organisations apart and needs the catalogue:read scope', async () => {
    const other = await createOrganisation(service, { name: 'Other' });
    const otherKey = await createKey(service, other.id, ['catalogue:read']);
    expectError(await request(service.app).get(`/v1/plans/${catalogue.plans.tiered!.id}`).set(otherKey.auth), 404, 'not_found', 'plan_not_found');
    expect((await request(service.app).get('/v1/plans').set(otherKey.auth)).body.data).toEqual([]);
    const noScope = await createKey(service, orgId, ['customers:read']);
    expectError(await request(service.app).get('/v1/plans').set(noScope.auth), 403, 'permission_error', 'insufficient_scope');
  });

  it.each([
    [{ ...planBodies.tiered, code: 'g1', tiers: [tiers[0], { ...tiers[1], from_units: 12 }, tiers[2]] }, 'tiers.1.from_units'],
    [{ ...planBodies.tiered, code: 'g2', tiers: [tiers[0], { ...tiers[1], to_units: null }, tiers[2]] }, 'tiers.1.to_units'],
    [{ ...planBodies.tiered, code: 'g3', tiers: [tiers[0], tiers[1]] }, 'tiers.1.to_units'],
    [{ ...planBodies.tiered, code: 'g4', tiers: [{ ...tiers[0], from_units: 5 }, tiers[1], tiers[2]] }, 'tiers.0.from_units'],
    [{ ...planBodies.tiered, code: 'g5', tiers: [] }, 'tiers'],
    [{ ...planBodies.per_unit, code: 'g6', tiers }, 'tiers'],
    [{ ...planBodies.per_unit, code: 'g7', allows_price_override: true }, 'allows_price_override'],
    [{ ...planBodies.flat_fee, code: 'g8', free_units: 3 }, 'free_units'],
    [{ ...planBodies.no_base_fee, code: 'g9', price: '1' }, 'price'],
    [{ ...planBodies.no_base_fee, code: 'g10', meters: [] }, 'meters'],
    [{ ...planBodies.no_base_fee, code: 'g11', meters: [{ meter_code: 'nope', pricing_model: 'per_unit', price: '1', included_units: 0 }] }, 'meters.0.meter_code'],
    [{ ...planBodies.no_base_fee, code: 'g12', meters: [{ meter_code: 'api_calls', pricing_model: 'per_unit', included_units: 0 }] }, 'meters.0.price'],
    [{ ...planBodies.no_base_fee, code: 'g13', meters: [{ meter_code: 'api_calls', pricing_model: 'tiered', tiers: [{ from_units: 0, to_units: 5, price: '1' }] }] }, 'meters.0.tiers.0.to_units'],
    [{ ...planBodies.per_unit, code: 'g14', price: '1.23456' }, 'price'],
    [{ ...planBodies.per_unit, code: 'g15', interval: { unit: 'fortnight' } }, 'interval.unit'],
    [{ ...planBodies.per_unit, code: 'seats' }, 'code'],
  ])('refuses plan %# with its param %s and stores nothing', async (body, param) => {
    const before = await service.services.store.headPosition();
    const response = await adminPost('plans', body);
    expect([409, 422]).toContain(response.status);
    expect(response.body.error.param).toBe(param);
    expect(await service.services.store.headPosition()).toBe(before);
  });

  it('refuses a second meter or charge with the same code', async () => {
    expectError(await adminPost('meters', { code: 'api_calls', name: 'Again' }), 409, 'conflict', 'meter_exists', 'code');
    expectError(await adminPost('charges', { code: 'setup', name: 'Again', currency: 'GBP', price: '1' }), 409, 'conflict', 'charge_exists', 'code');
  });
});
