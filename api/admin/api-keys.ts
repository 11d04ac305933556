import type { Router } from 'express';
import { createApiKey } from '../../commands/api-key/create-api-key';
import { revokeApiKey } from '../../commands/api-key/revoke-api-key';
import { API_KEYS, type ApiKeyDoc } from '../../projections/read-models/api-keys';
import type { ApiDeps } from '../deps';
import { notFound } from '../errors';
import { publicView } from '../paging';
import { type RouteRegistry, route } from '../route';
import { apiKeyObject, createApiKeyBody, createdApiKeyObject, toApiKeyInput } from '../schemas/api-key';
import { adminCaller } from './admin-caller';
import { readAfterWrite } from '../read-after-write';
import { findOrganisation } from './organisations';

const findApiKey = async (deps: ApiDeps, organisationId: string, id: string): Promise<ApiKeyDoc> => {
  const key = await deps.readStore.get<ApiKeyDoc>(API_KEYS, id);
  if (!key || key._organisation !== organisationId) throw notFound('api_key_not_found', `No API key with id ${id}.`, 'id');
  return key;
};

export const apiKeyRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  route(
    router,
    registry,
    {
      method: 'post',
      path: '/admin/v1/organisations/{org}/api_keys',
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description: `
        Creates a key for the public API with a name, its scopes and an optional expiry. The secret,
        \`key\`, is in this answer only: store it now. A key of a live organisation begins
        \`service_live_\`, one of a sandbox \`service_test_\`; each works only against its own organisation.

        Scopes: \`customers:read\`, \`customers:write\`, \`catalogue:read\`, \`subscriptions:read\`,
        \`subscriptions:write\`, \`invoices:read\`, \`credit_notes:read\`, \`usage:write\`.

        **Errors:** \`422 invalid_parameter\`: an unknown or repeated scope, or \`expires_at\` not in the future.
      `,
      tag: 'API keys',
      auth: 'admin',
      body: createApiKeyBody,
      examples: [
        { summary: 'A backend’s key', value: { name: 'backend', scopes: ['catalogue:read', 'customers:write', 'subscriptions:write', 'invoices:read'] } },
        { summary: 'A usage reporter’s key, for a year', value: { name: 'usage reporter', scopes: ['usage:write'], expires_at: '2027-03-15T00:00:00Z' } },
      ],
      status: 201,
      response: createdApiKeyObject,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { apiKeyId, key, position } = await createApiKey(deps, adminCaller(req), organisation, toApiKeyInput(body));
      const record = await readAfterWrite(deps, position, () => findApiKey(deps, organisation.id, apiKeyId));
      return { body: { ...publicView(record), key } };
    },
  );

  route(
    router,
    registry,
    {
      method: 'post',
      path: '/admin/v1/organisations/{org}/api_keys/{id}/revoke',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: `
        Revokes a key at once: every later request with it is refused with \`401 api_key_revoked\`.
        Revoking cannot be undone; create another key instead.

        **Errors:** \`404 api_key_not_found\` when the organisation has no key with that id.
      `,
      tag: 'API keys',
      auth: 'admin',
      status: 200,
      response: apiKeyObject,
    },
    async ({ req, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      await findApiKey(deps, organisation.id, params.id!);
      const { position } = await revokeApiKey(deps, adminCaller(req), organisation, params.id!);
      return { body: publicView(await readAfterWrite(deps, position, () => findApiKey(deps, organisation.id, params.id!))) };
    },
  );
};
