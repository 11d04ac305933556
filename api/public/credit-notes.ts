import type { Router } from 'express';
import type { ApiDeps } from '../deps';
import { CREDIT_NOTE_READ } from '../object-reads';
import type { RouteRegistry } from '../route';
import { publicObjectRoutes } from './object-routes';

export const creditNoteRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => publicObjectRoutes(router, registry, deps, CREDIT_NOTE_READ);
