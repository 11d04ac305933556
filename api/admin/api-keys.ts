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
      summary: 'Create an API key (the secret is shown once)',
      tag: 'API keys',
      auth: 'admin',
      body: createApiKeyBody,
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
