import type { Router } from 'express';
import { RebuildRunning } from '../../projections/engine/runner';
import type { ApiDeps } from '../deps';
import { conflict, invalidParameter, notFound } from '../errors';
import { listOf } from '../paging';
import { type RouteRegistry, route } from '../route';
import { projectionObject, rebuildBody, rebuildObject, toProjectionObject, toRebuildObject } from '../schemas/projections';

/** Operators' view of the read models: each projection's position, and blue/green rebuilds beside the live service. */
export const projectionRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Projections', auth: 'admin' } as const;

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: '/admin/v1/projections',
      operationId: 'listProjections',
      summary: 'List projections',
      description: 'Each projection (read model): its version, the log position it has reached (`checkpoint`), the log’s `head`, the `lag` between them, and its status (`live`, `rebuilding`).',
      status: 200,
      response: listOf(projectionObject),
    },
    async () => ({ body: { object: 'list', data: (await deps.projections.status()).map(toProjectionObject), has_more: false } }),
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/projections/rebuild',
      operationId: 'rebuildProjections',
      summary: 'Rebuild projections',
      description: `
        Starts a blue/green rebuild of the named projections (default all): a new generation is written
        from the start of the log beside the live one, catches up, and reads switch to it at once, with
        no downtime. \`verify\` compares the two generations document by document before switching.
        Answers \`202\` at once; follow it with \`GET /admin/v1/projections/rebuild\`.

        **Errors:** \`409 rebuild_running\`: a rebuild is already running; \`422 invalid_parameter\`: an unknown projection name.
      `,
      body: rebuildBody,
      examples: [
        { summary: 'Every projection', value: {} },
        { summary: 'Two projections, verified', value: { projections: ['subscriptions', 'invoices'], verify: true } },
      ],
      status: 202,
      response: rebuildObject,
      errors: [409],
    },
    ({ body }) => {
      const known = deps.projections.projections.map((projection) => projection.name);
      const unknown = (body.projections ?? []).filter((name) => !known.includes(name));
      if (unknown.length > 0) throw invalidParameter('projections', `Unknown projection(s): ${unknown.join(', ')}; known: ${known.join(', ')}.`);
      try {
        return Promise.resolve({ body: toRebuildObject(deps.projections.startRebuild(body.projections ?? null, { verify: body.verify })) });
      } catch (error) {
        if (error instanceof RebuildRunning) throw conflict('rebuild_running', 'A rebuild is already running.');
        throw error;
      }
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: '/admin/v1/projections/rebuild',
      operationId: 'getProjectionRebuild',
      summary: 'Follow a rebuild',
      description: 'The running rebuild, or the last one: its status, the events replayed, rate and ETA, and the differences `verify` found.\n\n**Errors:** `404 rebuild_not_found`: no rebuild has run since the service started.',
      status: 200,
      response: rebuildObject,
    },
    () => {
      const rebuild = deps.projections.rebuildStatus();
      if (!rebuild) throw notFound('rebuild_not_found', 'No rebuild has run since the service started.');
      return Promise.resolve({ body: toRebuildObject(rebuild) });
    },
  );
};
