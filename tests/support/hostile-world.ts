import request from 'supertest';
import { SCOPES } from '../../domain/api-key/scopes';
import { type Clock } from '../../infra/clock/clock';
import { defineCatalogue } from './catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation } from './fixtures';
import { startTestService, tempDir, type TestService } from './test-service';


/**
 * A clock that moves one second each time it is read, from 10:00 UTC on 15 March 2026: enough
 * time passes that the rate limit (120 a minute) never answers for the suites that hammer one key,
 * and business dates stay on the same day.
 */
export const ticking = (): Clock => {
  let at = Date.parse('2026-03-15T10:00:00.000Z');
  return { now: () => new Date((at += 1000)) };
};

export type HostileWorld = Readonly<{
  service: TestService;
  orgId: string;
  auth: { Authorization: string };
  plans: Record<string, { id: string }>;
  charge: { id: string };
  customerId: string;
  /** Codes of a plan and a charge priced at the largest price accepted. */
  huge: Readonly<{ planCode: string; chargeId: string }>;
}>;

/** A live organisation connected to the accounting system, its catalogue, a customer and a key with every scope. */
export const hostileWorld = async (label: string, clock: Clock = ticking()): Promise<HostileWorld> => {
  const service = await startTestService(tempDir(label), { clock });
  const orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
  await connectAccounting(service, orgId);
  const { plans, charge } = await defineCatalogue(service, orgId);
  const admin = (path: string, body: object) =>
    request(service.app).post(`/admin/v1/organisations/${orgId}/${path}`).set(service.admin).send(body);
  const hugePlan = await admin('plans', { code: 'huge', name: 'Huge', type: 'per_unit', interval: { unit: 'month' }, currency: 'GBP', price: '999999999999.9999', status: 'active' });
  const hugeCharge = await admin('charges', { code: 'huge-fee', name: 'Huge fee', currency: 'GBP', price: '999999999999.9999' });
  if (hugePlan.status !== 201 || hugeCharge.status !== 201) throw new Error('huge catalogue not created');
  const { auth } = await createKey(service, orgId, [...SCOPES]);
  const customer = await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Customer One' });
  if (customer.status !== 201) throw new Error(`customer not created: ${JSON.stringify(customer.body)}`);
  return {
    service,
    orgId,
    auth,
    plans,
    charge,
    customerId: (customer.body as { id: string }).id,
    huge: { planCode: 'huge', chargeId: (hugeCharge.body as { id: string }).id },
  };
};
