import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../api/app';
import { resolveAdminToken } from '../infra/admin-token';
import { type QuickStart, quickStart, quickStartBanner } from './quick-start';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import { holdServiceLock } from '../infra/service-lock';
import { startWorkers } from '../workers/workers';
import { apiDeps, openServices, type Services, workerDeps, workerOptions } from './services';

export type RunningService = Readonly<{
  url: string;
  adminToken: string;
  /** What the quick start made on a first start; null on later starts. */
  demo: QuickStart | null;
  services: Services;
  stop(): Promise<void>;
}>;

/** Starts everything one embedded process runs: stores, projections and the HTTP API. */
export const startService = async (config: Config, logger: Logger): Promise<RunningService> => {
  const services = await openServices(config, logger);
  const lock = holdServiceLock(config.DATA_DIR);
  const { token: adminToken, created } = resolveAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
  if (created) {
    process.stdout.write(`\nAdmin token (shown once, kept in ${config.DATA_DIR}/admin-token):\n  ${adminToken}\n\n`);
  }
  await services.projections.start();
  const demo = await quickStart(services);
  if (demo) await services.projections.waitFor(demo.position);
  if (config.WEBHOOK_ALLOW_LOOPBACK) {
    logger.warn('WEBHOOK_ALLOW_LOOPBACK=true: webhook endpoints on http://127.0.0.1 and http://localhost are accepted and delivered to; never set it in production');
  }
  // The data directory lock makes this the only process on the embedded queue: what a killed predecessor was running runs again now.
  if (services.queues.kind === 'sqlite') {
    const recovered = await services.queues.recoverAbandoned();
    if (recovered > 0) logger.info({ jobs: recovered }, 'jobs left running by a stopped process queued again');
  }
  const workers = await startWorkers(workerDeps(services), workerOptions(services));
  const { app } = createApp(apiDeps(services, adminToken, workers));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(config.PORT, () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  logger.info({ url }, 'billing service listening');
  if (demo) process.stdout.write(quickStartBanner(url, demo));
  return {
    url,
    adminToken,
    demo,
    services,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workers.stop();
      await services.close();
      lock.release();
    },
  };
};
