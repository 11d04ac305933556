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
      summary: 'Queue depths, failed jobs, how far each worker has followed the log, and the status poller’s lag',
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
