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
