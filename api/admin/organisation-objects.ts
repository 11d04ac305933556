import type { Router } from 'express';
import type { ApiDeps } from '../deps';
import {
  API_KEY_READ,
  CHARGE_READ,
  CREDIT_NOTE_READ,
  CUSTOMER_READ,
  getObject,
  INVOICE_READ,
  listObjects,
  listOrganisations,
  METER_READ,
  type ObjectRead,
  organisationsQuery,
  PLAN_READ,
  SUBSCRIPTION_READ,
} from '../object-reads';
import { listOf } from '../paging';
import { type RouteRegistry, route } from '../route';
import { organisationObject } from '../schemas/organisation';
import { findOrganisation } from './organisations';

const OWNED = '/admin/v1/organisations/{org}';

/**
 * An operator's reads of what organisations hold: the lists and objects `/v1` serves (the same
 * query, read model and view; only the authentication differs), meters and API keys (never their
 * secrets), and the organisations themselves.
 */
export const organisationObjectRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  route(
    router,
    registry,
    {
      method: 'get',
      path: '/admin/v1/organisations',
      operationId: 'listOrganisations',
      summary: 'List organisations, newest first',
      description: 'Every organisation, live ones and sandboxes alike (`livemode` filters them); each as `GET /admin/v1/organisations/{org}` shows it.',
      tag: 'Organisations',
      auth: 'admin',
      query: organisationsQuery,
      status: 200,
      response: listOf(organisationObject),
    },
    async ({ query }) => ({ body: await listOrganisations(deps, query) }),
  );

  const objects = (read: ObjectRead, { withGet }: { withGet: boolean }) => {
    const base = { tag: read.tag, auth: 'admin', status: 200, method: 'get', errors: [404] } as const;
    const served = read.scope ? `as \`GET /v1/${read.resource}\` serves them to a key with \`${read.scope}\`` : 'as the admin API shows them';
    route(
      router,
      registry,
      {
        ...base,
        path: `${OWNED}/${read.resource}`,
        operationId: `list${read.noun}s`,
        summary: `${read.listSummary}, of one organisation`,
        description: `One page of the organisation's ${read.resource.replace('_', ' ')}, with the same filters and paging, ${served}.`,
        query: read.query,
        response: listOf(read.object),
      },
      async ({ params, query }) => {
        const organisation = await findOrganisation(deps, params.org!);
        return { body: await listObjects(deps, read, organisation.id, query) };
      },
    );
    if (!withGet) return;
    route(
      router,
      registry,
      {
        ...base,
        path: `${OWNED}/${read.resource}/{id}`,
        operationId: `get${read.noun}`,
        summary: `${read.getSummary}, of one organisation`,
        description: `One object of the organisation's, ${served.replace('them', 'it')}; another organisation's is \`404 ${read.notFoundCode}\`.`,
        response: read.object,
      },
      async ({ params }) => {
        const organisation = await findOrganisation(deps, params.org!);
        return { body: await getObject(deps, read, organisation.id, params.id!) };
      },
    );
  };
  for (const read of [CUSTOMER_READ, PLAN_READ, CHARGE_READ, METER_READ, INVOICE_READ, CREDIT_NOTE_READ, API_KEY_READ]) objects(read, { withGet: true });
  // A subscription's retrieval is the auditors' (`getSubscriptionAsOf`): now, or as of an instant.
  objects(SUBSCRIPTION_READ, { withGet: false });
};
