import type { Router } from 'express';
import type { ApiDeps } from '../deps';
import { conflict } from '../errors';
import { type RouteRegistry, route } from '../route';
import { workersStatusObject } from '../schemas/workers';

export const workersRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  route(
    router,
    registry,
    {
      method: 'get',
      path: '/admin/v1/workers',
      operationId: 'getWorkers',
      summary: 'Workers’ status',
      description: `
        The background workers of this process: each queue's depth and failed jobs, how far each worker
        has followed the log, and how long since the status poller last heard from the accounting system.

        **Errors:** \`409 workers_not_running\`: this process runs no workers.
      `,
      tag: 'Operations',
      auth: 'admin',
      status: 200,
      response: workersStatusObject,
      errors: [409],
    },
    async () => {
      if (!deps.workersStatus) throw conflict('workers_not_running', 'No workers run in this process.');
      return { body: await deps.workersStatus() };
    },
  );
};
