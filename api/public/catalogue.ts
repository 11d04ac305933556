import type { Router } from 'express';
import type { ApiDeps } from '../deps';
import { CHARGE_READ, PLAN_READ } from '../object-reads';
import type { RouteRegistry } from '../route';
import { publicObjectRoutes } from './object-routes';

/** `GET /v1/plans`, `/v1/plans/{id}`, `/v1/charges`, `/v1/charges/{id}`. */
export const catalogueRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  publicObjectRoutes(router, registry, deps, PLAN_READ);
  publicObjectRoutes(router, registry, deps, CHARGE_READ);
};
