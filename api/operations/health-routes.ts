import type { Router } from 'express';
import { z } from 'zod';
import { type RouteRegistry, route } from '../route';
import type { OperationsDeps } from './operations-deps';
import { type CheckName, readiness } from './readiness';

const checkResult = z.union([z.object({ status: z.literal('ok') }), z.object({ status: z.literal('failing'), error: z.string() })]);
const checks = z.object({ event_store: checkResult, read_store: checkResult, locks: checkResult, jobs: checkResult, projections: checkResult });
const readyObject = z.union([
  z.object({ status: z.literal('ready'), checks }),
  z.object({ status: z.literal('not_ready'), failing: z.array(z.string()), checks }),
  z.object({ status: z.literal('stopping'), failing: z.tuple([z.literal('stopping')]) }),
]);

/**
 * The orchestrator's probes: no key, no rate limit, nothing logged. Live while the process can
 * answer at all; ready while every store answers and every projection is within
 * READY_MAX_LAG_EVENTS of the log, and not once a stop has begun.
 */
export const healthRoutes = (router: Router, registry: RouteRegistry, deps: OperationsDeps): void => {
  const base = { method: 'get', tag: 'Operations', auth: 'none', status: 200 } as const;
  const noStore = { 'Cache-Control': 'no-store' };

  route(
    router,
    registry,
    {
      ...base,
      path: '/health/live',
      operationId: 'getLiveness',
      summary: 'Liveness: 200 while the process can answer',
      description: 'For an orchestrator’s liveness probe: no key, no rate limit, nothing logged.',
      response: z.object({ status: z.literal('ok') }),
    },
    ({ res }) => {
      res.set(noStore);
      return Promise.resolve({ body: { status: 'ok' } });
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      path: '/health/ready',
      operationId: 'getReadiness',
      summary: 'Readiness: 200 while every store answers and every projection is within READY_MAX_LAG_EVENTS',
      description:
        'For an orchestrator’s readiness probe and a proxy’s health check: `503` names each failing check (`event_store`, `read_store`, `locks`, `jobs`, `projections`), or says `stopping` once a stop has begun.',
      alsoStatus: 503,
      alsoStatusMeaning: 'not ready: the failing checks named, or stopping',
      response: readyObject,
    },
    async ({ res }) => {
      res.set(noStore);
      if (deps.stopping()) return { status: 503, body: { status: 'stopping', failing: ['stopping'] } };
      const { ready, checks, failing } = await readiness(deps);
      return ready ? { body: { status: 'ready', checks } } : { status: 503, body: { status: 'not_ready', failing: failing satisfies readonly CheckName[], checks } };
    },
  );
};
