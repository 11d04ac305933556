import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import type { RouteRegistry } from '../../api/route';
import type { Clock } from '../../infra/clock/clock';
import { loadConfig } from '../../infra/config';
import { silentLogger } from '../../infra/logger';
import { apiDeps, openServices, type Services, workerDeps } from '../../service/services';
import { startWorkers, type WorkerOptions } from '../../workers/workers';
import { checkedApp } from './response-check';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export type TestService = Readonly<{
  app: Express;
  routes: RouteRegistry;
  services: Services;
  dataDir: string;
  admin: Readonly<{ Authorization: string }>;
  close(): Promise<void>;
}>;

export const tempDir = (label: string): string => mkdtempSync(join(tmpdir(), `${label}-`));

/** The real app on the embedded stores in a fresh data directory; every response is checked against its route's spec. */
export const startTestService = async (
  dataDir = tempDir('billing'),
  options: { clock?: Clock; env?: Record<string, string>; workers?: WorkerOptions } = {},
): Promise<TestService> => {
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', ...options.env });
  const services = await openServices(config, silentLogger(), options.clock);
  await services.projections.start();
  // The workers run only where a test asks for them (with its shortened waits).
  const workers = options.workers ? await startWorkers(workerDeps(services), options.workers) : null;
  const { app, routes } = createApp(apiDeps(services, ADMIN_TOKEN));
  return {
    app: checkedApp(app, routes),
    routes,
    services,
    dataDir,
    admin: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    close: async () => {
      await workers?.stop();
      await services.close();
    },
  };
};
