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
  for (const [resource, collection, object, notFoundCode, noun] of [
    ['plans', PLANS, planObject, 'plan_not_found', 'Plan'],
    ['charges', CHARGES, chargeObject, 'charge_not_found', 'Charge'],
  ] as const) {
    const base = { tag: noun === 'Plan' ? 'Plans' : 'Charges', auth: 'api_key', scope: 'catalogue:read', status: 200 } as const;
    publicRoute(
      router,
      registry,
      deps,
      { ...base, method: 'get', path: `/v1/${resource}`, operationId: `list${noun}s`, summary: `List ${resource}, newest first`, query: catalogueQuery, response: listOf(object) },
      async ({ req, query }) => ({ body: await listPage(deps.readStore, collection, req.auth!.organisation.id, query) }),
    );
    publicRoute(
      router,
      registry,
      deps,
      { ...base, method: 'get', path: `/v1/${resource}/{id}`, operationId: `get${noun}`, summary: `Retrieve a ${noun.toLowerCase()}`, response: object },
      async ({ req, params }) => ({ body: publicView(await findOwned(deps, collection, req.auth!.organisation.id, params.id!, notFoundCode)) }),
    );
  }
};
