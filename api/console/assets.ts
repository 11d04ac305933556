import { join } from 'node:path';
import express, { type Router } from 'express';
import { projectRoot } from '../../infra/threads/compiled-script';

/**
 * The console's own script and styles, and uPlot's, served from the project and its dependencies:
 * nothing is fetched from another host, so the console works with no internet.
 */
export const consoleAssets = (): Router => {
  const router = express.Router();
  const options = { maxAge: '1h', fallthrough: false } as const;
  const uplot = join(projectRoot(__dirname), 'node_modules', 'uplot', 'dist');
  router.get('/uplot.js', (_req, res) => res.sendFile(join(uplot, 'uPlot.iife.min.js'), options));
  router.get('/uplot.css', (_req, res) => res.sendFile(join(uplot, 'uPlot.min.css'), options));
  router.use(express.static(join(projectRoot(__dirname), 'api', 'console', 'assets'), options));
  return router;
};
