import request from 'supertest';
import type { TestService } from './test-service';

export type OrganisationFixture = { id: string; livemode: boolean; sandbox: string | null; [field: string]: unknown };

export const createOrganisation = async (
  service: TestService,
  overrides: Record<string, unknown> = {},
): Promise<OrganisationFixture> => {
  const response = await request(service.app)
    .post('/admin/v1/organisations')
    .set(service.admin)
    .send({ name: 'Acme Ltd', timezone: 'Europe/London', default_currency: 'GBP', ...overrides });
  if (response.status !== 201) throw new Error(`organisation not created: ${JSON.stringify(response.body)}`);
  return response.body as OrganisationFixture;
};

export const openSandbox = async (service: TestService, liveId: string): Promise<OrganisationFixture> => {
  const response = await request(service.app).post(`/admin/v1/organisations/${liveId}/sandbox`).set(service.admin).send({});
  if (response.status !== 201) throw new Error(`sandbox not opened: ${JSON.stringify(response.body)}`);
  return response.body as OrganisationFixture;
};

export const createKey = async (
  service: TestService,
  organisationId: string,
  scopes: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; key: string; auth: { Authorization: string } }> => {
  const response = await request(service.app)
    .post(`/admin/v1/organisations/${organisationId}/api_keys`)
    .set(service.admin)
    .send({ name: 'test key', scopes, ...extra });
  if (response.status !== 201) throw new Error(`key not created: ${JSON.stringify(response.body)}`);
  const { id, key } = response.body as { id: string; key: string };
  return { id, key, auth: { Authorization: `Bearer ${key}` } };
};

/** Connects the accounting system and maps the revenue accounts ('200' sales, '270' usage). */
export const connectAccounting = async (service: TestService, organisationId: string): Promise<string> => {
  const connected = await request(service.app).post(`/admin/v1/organisations/${organisationId}/accounting/connect`).set(service.admin).send({});
  if (connected.status !== 200) throw new Error(`not connected: ${JSON.stringify(connected.body)}`);
  const mapped = await request(service.app)
    .put(`/admin/v1/organisations/${organisationId}/accounting/accounts`)
    .set(service.admin)
    .send({ revenue: '200', usage_revenue: '270' });
  if (mapped.status !== 200) throw new Error(`not mapped: ${JSON.stringify(mapped.body)}`);
  return (connected.body as { tenant_id: string }).tenant_id;
};

/** Calls a control route of the demonstration accounting system (approve, pay, archive, faults). */
export const accountingControl = (service: TestService, path: string, body: object = {}) =>
  fetch(`${service.services.accountingUrl}/control${path}`, {
    method: path === '/faults' && Object.keys(body).length === 0 ? 'DELETE' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
