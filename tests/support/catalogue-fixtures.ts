import request from 'supertest';
import { connectAccounting, createKey, createOrganisation } from './fixtures';
import type { TestService } from './test-service';

export const tiers = [
  { from_units: 1, to_units: 10, price: '5.00' },
  { from_units: 11, to_units: 20, price: '4.00' },
  { from_units: 21, to_units: null, price: '3.50' },
];

/** One plan body of each type (a meter `api_calls` must exist for the metered ones). */
export const planBodies: Record<string, Record<string, unknown>> = {
  flat_fee: { code: 'flat', name: 'Flat', type: 'flat_fee', interval: { unit: 'month' }, currency: 'GBP', price: '49.99', allows_price_override: true },
  per_unit: { code: 'seats', name: 'Seats', type: 'per_unit', interval: { unit: 'month' }, currency: 'GBP', price: '10', minimum_units: 2, free_units: 1, unit_labels: { singular: 'seat', plural: 'seats' } },
  tiered: { code: 'tiered', name: 'Tiered', type: 'tiered', interval: { unit: 'month', count: 3 }, currency: 'GBP', tiers },
  volume: { code: 'volume', name: 'Volume', type: 'volume', interval: { unit: 'year' }, currency: 'GBP', tiers },
  stairstep: { code: 'stairs', name: 'Stairs', type: 'stairstep', interval: { unit: 'week' }, currency: 'GBP', tiers },
  no_base_fee: {
    code: 'metered',
    name: 'Metered',
    type: 'no_base_fee',
    interval: { unit: 'month' },
    currency: 'GBP',
    meters: [
      { meter_code: 'api_calls', pricing_model: 'per_unit', price: '0.0015', included_units: 1000, minimum_units: 100 },
      { meter_code: 'storage_gb', pricing_model: 'volume', tiers },
    ],
  },
};

export const defineCatalogue = async (service: TestService, organisationId: string) => {
  const admin = (path: string, body: object) =>
    request(service.app).post(`/admin/v1/organisations/${organisationId}/${path}`).set(service.admin).send(body);
  for (const meter of [
    { code: 'api_calls', name: 'API calls', unit_labels: { singular: 'call', plural: 'calls' } },
    { code: 'storage_gb', name: 'Storage' },
  ]) {
    const response = await admin('meters', meter);
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  }
  const plans: Record<string, { id: string }> = {};
  for (const [type, body] of Object.entries(planBodies)) {
    const response = await admin('plans', { status: 'active', ...body });
    if (response.status !== 201) throw new Error(`${type}: ${JSON.stringify(response.body)}`);
    plans[type] = response.body as { id: string };
  }
  const charge = await admin('charges', { code: 'setup', name: 'Setup fee', description: 'One-off onboarding', currency: 'GBP', price: '99.5' });
  if (charge.status !== 201) throw new Error(JSON.stringify(charge.body));
  return { plans, charge: charge.body as { id: string } };
};

/**
 * An organisation ready to sell: allowed to create contacts, connected with its accounts mapped, the
 * catalogue defined, a key with these scopes, and a customer `C1`.
 */
export const billingOrganisation = async (service: TestService, scopes: string[]) => {
  const orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
  const tenantId = await connectAccounting(service, orgId);
  const catalogue = await defineCatalogue(service, orgId);
  const key = await createKey(service, orgId, scopes);
  await request(service.app).post('/v1/customers').set(key.auth).send({ code: 'C1', name: 'Customer One' });
  return { orgId, tenantId, catalogue, auth: key.auth, keyId: key.id };
};
