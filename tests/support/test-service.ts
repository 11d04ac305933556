import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import type { RouteRegistry } from '../../api/route';
import type { Clock } from '../../infra/clock/clock';
import { loadConfig } from '../../infra/config';
import { silentLogger } from '../../infra/logger';
import { apiDeps, openServices, type Services, workerDeps, workerOptions } from '../../service/services';
import type { Resolver } from '../../infra/webhooks/resolver';
import { accountingSync } from '../../workers/accounting-sync';
import { restoreTestClocks } from '../../workers/scheduler';
import { startWorkers, type WorkerOptions, type Workers } from '../../workers/workers';
import { checkedApp } from './response-check';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export type TestService = Readonly<{
  app: Express;
  routes: RouteRegistry;
  services: Services;
  /** The workers, when the test asked for them. */
  workers: Workers | null;
  dataDir: string;
  admin: Readonly<{ Authorization: string }>;
  close(): Promise<void>;
}>;

export const tempDir = (label: string): string => mkdtempSync(join(tmpdir(), `${label}-`));

/** The real app on the embedded stores in a fresh data directory; every response is checked against its route's spec. */
export const startTestService = async (
  dataDir = tempDir('billing'),
  options: { clock?: Clock; env?: Record<string, string>; workers?: Partial<WorkerOptions>; resolver?: Resolver; /** false: not even the accounting sync worker runs (a process that dies before pushing) */ delivery?: boolean } = {},
): Promise<TestService> => {
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', ...options.env });
  const services = await openServices(config, silentLogger(), options.clock, options.resolver);
  await services.projections.start();
  await restoreTestClocks(services);
  // The workers run only where a test asks for them (with its shortened waits); pushing to the
  // accounting system is a job whose outcome requests wait for, so its worker runs in every test service.
  const workers = options.workers ? await startWorkers(workerDeps(services), { ...workerOptions(services), ...options.workers }) : null;
  const delivery = workers || options.delivery === false ? null : accountingSync(workerDeps(services), workerOptions(services).accountingSync);
  await delivery?.start();
  const { app, routes } = createApp(apiDeps(services, ADMIN_TOKEN, workers));
  return {
    app: checkedApp(app, routes),
    routes,
    services,
    workers,
    dataDir,
    admin: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    close: async () => {
      await workers?.stop();
      await delivery?.stop();
      await services.close();
    },
  };
};
