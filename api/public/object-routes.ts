import type { Router } from 'express';
import type { Scope } from '../../domain/api-key/scopes';
import type { ApiDeps } from '../deps';
import { getObject, listObjects, type ObjectRead } from '../object-reads';
import { listOf } from '../paging';
import type { RouteRegistry } from '../route';
import { publicRoute } from './public-route';

/** `GET /v1/<resource>` and `GET /v1/<resource>/{id}` of the caller's organisation. */
export const publicObjectRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps, read: ObjectRead & { scope: Scope }): void => {
  const base = { tag: read.tag, auth: 'api_key', scope: read.scope, status: 200, method: 'get' } as const;
  publicRoute(
    router,
    registry,
    deps,
    { ...base, path: `/v1/${read.resource}`, operationId: `list${read.noun}s`, summary: read.listSummary, description: read.listDescription, query: read.query, response: listOf(read.object) },
    async ({ req, query }) => ({ body: await listObjects(deps, read, req.auth!.organisation.id, query) }),
  );
  publicRoute(
    router,
    registry,
    deps,
    { ...base, path: `/v1/${read.resource}/{id}`, operationId: `get${read.noun}`, summary: read.getSummary, description: read.getDescription, response: read.object },
    async ({ req, params }) => ({ body: await getObject(deps, read, req.auth!.organisation.id, params.id!) }),
  );
};
