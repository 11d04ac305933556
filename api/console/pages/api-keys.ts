import type { Router } from 'express';
import { createApiKey } from '../../../commands/api-key/create-api-key';
import { revokeApiKey } from '../../../commands/api-key/revoke-api-key';
import { SCOPES } from '../../../domain/api-key/scopes';
import type { ApiDeps } from '../../deps';
import { API_KEY_READ, getObject, listObjects } from '../../object-reads';
import { createApiKeyBody, toApiKeyInput } from '../../schemas/api-key';
import { parseOrThrow } from '../../validation';
import { command, page, type PageLoader } from '../page';
import { consoleCaller } from '../session';
import { organisationOf, organisationPath } from './organisation';
import { formQuery } from './paging';

export const keyPages = (router: Router, deps: ApiDeps): void => {
  const keys: PageLoader = async (req, form) => {
    const organisation = await organisationOf(deps, req);
    const list = await listObjects(deps, API_KEY_READ, organisation.id, { limit: 100 });
    return { view: 'api-keys', title: 'API keys', organisation, data: { keys: list.data, scopes: SCOPES, form } };
  };
  page(router, '/organisations/:org/api-keys', keys);

  command(router, '/organisations/:org/api-keys', 'create-key', keys, async (req) => {
    const organisation = await organisationOf(deps, req);
    const fields = formQuery(req.body, ['name', 'expires_at']);
    const body = parseOrThrow(createApiKeyBody, { ...fields, scopes: SCOPES.filter((scope) => formQuery(req.body)[scope] === 'on') });
    const { apiKeyId, key, position } = await createApiKey(deps, consoleCaller(req), organisation, toApiKeyInput(body));
    await deps.waitForProjections(position);
    // The key is shown on this answer alone: never stored, never in a redirect.
    return { show: { created: { id: apiKeyId, name: body.name, key } } };
  });

  command(router, '/organisations/:org/api-keys/:id/revoke', 'revoke', keys, async (req) => {
    const organisation = await organisationOf(deps, req);
    const key = await getObject<{ id: string; name: string }>(deps, API_KEY_READ, organisation.id, req.params.id as string);
    const { position } = await revokeApiKey(deps, consoleCaller(req), organisation, key.id);
    await deps.waitForProjections(position);
    return { notice: `API key ${key.name} revoked.`, redirect: organisationPath(organisation.id, '/api-keys') };
  });
};
