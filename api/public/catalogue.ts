import type { Router } from 'express';
import { CATALOGUE_STATUSES } from '../../domain/catalogue/types';
import { CHARGES } from '../../projections/read-models/charges';
import { PLANS } from '../../projections/read-models/plans';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { csvEnum, listOf, listPage, listQuery, publicView } from '../paging';
import type { RouteRegistry } from '../route';
import { chargeObject, planObject } from '../schemas/catalogue';
import { publicRoute } from './public-route';
import { z } from 'zod';

const catalogueQuery = listQuery({ code: z.string().min(1).optional(), status: csvEnum(CATALOGUE_STATUSES).optional() });

/** `GET /v1/plans`, `/v1/plans/{id}`, `/v1/charges`, `/v1/charges/{id}`. */
export const catalogueRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  for (const [resource, collection, object, notFoundCode, noun, use] of [
    ['plans', PLANS, planObject, 'plan_not_found', 'Plan', 'A new subscription names one by `plan_code`; what it can use is `status=active,draft`.'],
    ['charges', CHARGES, chargeObject, 'charge_not_found', 'Charge', 'A new subscription adds one to its first invoice by id, in `charges`.'],
  ] as const) {
    const base = { tag: `${noun}s`, auth: 'api_key', scope: 'catalogue:read', status: 200 } as const;
    publicRoute(
      router,
      registry,
      deps,
      {
        ...base,
        method: 'get',
        path: `/v1/${resource}`,
        operationId: `list${noun}s`,
        summary: `List ${resource}`,
        description: `
          The organisation's ${resource}, newest first, paged with \`limit\` and \`starting_after\`, of every
          status unless \`status\` narrows it (\`draft\`, \`active\`, \`inactive\`, \`legacy\`, comma-separated);
          \`code\` finds one by its code. ${use} Read them once and cache their ids and codes.

          **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
        `,
        query: catalogueQuery,
        response: listOf(object),
      },
      async ({ req, query }) => ({ body: await listPage(deps.readStore, collection, req.auth!.organisation.id, query) }),
    );
    publicRoute(
      router,
      registry,
      deps,
      {
        ...base,
        method: 'get',
        path: `/v1/${resource}/{id}`,
        operationId: `get${noun}`,
        summary: `Retrieve a ${noun.toLowerCase()}`,
        description: `A ${noun.toLowerCase()} by its id.\n\n**Errors:** \`404 ${notFoundCode}\` when the organisation has no ${noun.toLowerCase()} with that id.`,
        response: object,
      },
      async ({ req, params }) => ({ body: publicView(await findOwned(deps, collection, req.auth!.organisation.id, params.id!, notFoundCode)) }),
    );
  }
};
