import type { Router } from 'express';
import type { Scope } from '../../domain/api-key/scopes';
import type { ApiDeps } from '../deps';
import { jsonBody } from '../middleware/json-body';
import { type HandlerInput, type RouteRegistry, type RouteSpec, route, type TypedExamples } from '../route';
import { requireScope } from './authenticate';
import { idempotency } from './idempotency';
import type { z } from 'zod';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/**
 * A `/v1` route: the key was authenticated and counted for the whole prefix; here its scope, then
 * the body is read (`400 invalid_json`, `413 payload_too_large`), then the Idempotency-Key.
 */
export const publicRoute = <const S extends RouteSpec & { scope: Scope | null }>(
  router: Router,
  registry: RouteRegistry,
  deps: ApiDeps,
  spec: S & TypedExamples<S>,
  handler: (input: HandlerInput<Infer<S['body']>, Infer<S['query']>>) => Promise<{ status?: number; body: unknown }>,
): void =>
  route(router, registry, spec, handler, [
    requireScope(spec.scope),
    jsonBody(),
    ...(spec.idempotencyKey ? [idempotency(deps, spec.idempotencyKey)] : []),
  ]);
