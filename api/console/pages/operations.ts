import type { Router } from 'express';
import type { ApiDeps } from '../../deps';
import { conflict } from '../../errors';
import { RebuildRunning } from '../../../projections/engine/runner';
import { toProjectionObject, toRebuildObject } from '../../schemas/projections';
import { command, page, type PageLoader } from '../page';

/** Operators' pages: the projections (with a rebuild followed live) and the workers. */
export const operationsPages = (router: Router, deps: ApiDeps): void => {
  const progress = async () => {
    const rebuild = deps.projections.rebuildStatus();
    return { projections: (await deps.projections.status()).map(toProjectionObject), rebuild: rebuild ? toRebuildObject(rebuild) : null };
  };
  const projections: PageLoader = async (_req, form) => ({ view: 'projections', title: 'Projections', data: { ...(await progress()), form } });
  page(router, '/projections', projections);
  // What the page's script polls while a rebuild runs, to update it without a reload.
  router.get('/projections/progress', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await progress());
  });
  command(router, '/projections/rebuild', 'rebuild', projections, () => {
    try {
      deps.projections.startRebuild(null, { verify: false });
    } catch (error) {
      if (error instanceof RebuildRunning) throw conflict('rebuild_running', 'A rebuild is already running.');
      throw error;
    }
    return Promise.resolve({ notice: 'Rebuild started: every read model is being rebuilt beside the live one.', redirect: '/console/projections' });
  });

  page(router, '/workers', async () => {
    if (!deps.workersStatus) throw conflict('workers_not_running', 'No workers run in this process.');
    return { view: 'workers', title: 'Workers', data: { workers: await deps.workersStatus() } };
  });
};
