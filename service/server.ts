import type { Server } from 'node:http';
import { type AddressInfo, isIPv6 } from 'node:net';
import { createApp } from '../api/app';
import { httpServer } from '../api/http-server';
import { resolveAdminToken } from '../infra/admin-token';
import { type QuickStart, quickStart, quickStartBanner } from './quick-start';
import type { Config } from '../infra/config';
import type { Logger } from '../infra/logger';
import { whileLeased } from '../infra/lease/while-leased';
import { lockDataDirectory } from '../infra/service-lock';
import { restoreTestClocks } from '../workers/scheduler';
import { startWorkers, type Workers } from '../workers/workers';
import { apiDeps, openServices, type Services, workerDeps, workerOptions } from './services';

export type RunningService = Readonly<{
  url: string;
  adminToken: string;
  /** What the quick start made on a first start; null on later starts. */
  demo: QuickStart | null;
  services: Services;
  stop(): Promise<void>;
}>;

/** Listens, or fails with a sentence naming the address (a port in use is an error, never a TypeError later). */
const listen = (server: Server, port: number, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });

/** Where a client on this machine reaches the service: a wildcard address is reached on loopback. */
const reachableAt = (host: string, port: number): string => {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${isIPv6(shown) ? `[${shown}]` : shown}:${port}`;
};

/**
 * Starts everything one embedded process runs: stores, projections and the HTTP API. The data
 * directory is locked before anything else (a second process stops there, naming the holder) and
 * stays locked until `stop` or the process's end.
 */
export const startService = async (config: Config, logger: Logger): Promise<RunningService> => {
  const lock = lockDataDirectory(config.DATA_DIR, 'service');
  let services: Services | null = null;
  let workers: Workers | null = null;
  let stopProjectionsLease = (): Promise<void> => Promise.resolve();
  try {
    services = await openServices(config, logger);
    const { token: adminToken, created } = resolveAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
    if (created) {
      process.stdout.write(`\nAdmin token (shown once, kept in ${config.DATA_DIR}/admin-token):\n  ${adminToken}\n\n`);
    }
    // With shared stores, one process applies the log to the read models; the others follow its checkpoints.
    let projectionsStarted = false;
    const { projections } = services;
    const projectionsLease = whileLeased(services.leases, 'projections', services.instanceId, { start: () => void (projectionsStarted && projections.catchUp()), stop: () => undefined }, { logger });
    stopProjectionsLease = () => projectionsLease.stop();
    projections.applyOnlyWhile(() => projectionsLease.held());
    await projectionsLease.ready;
    await projections.start();
    projectionsStarted = true;
    await services.usageEventIds.start();
    await restoreTestClocks(services);
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
    // Likewise its idempotency locks: a retry of a request it was running is answered at once, not after the lease.
    if (!config.REDIS_URL) {
      const released = await services.idempotency.releaseAbandoned();
      if (released > 0) logger.info({ locks: released }, 'idempotency locks left by a stopped process released');
    }
    workers = await startWorkers(workerDeps(services), workerOptions(services));
    const { app } = createApp(apiDeps(services, adminToken, workers));
    const server = httpServer(app);
    const port = await listen(server, config.PORT, config.HOST);
    const url = reachableAt(config.HOST, port);
    logger.info({ url, host: config.HOST, console: `${url}/console` }, 'billing service listening');
    if (demo) process.stdout.write(quickStartBanner(url, demo));
    return running(url, adminToken, demo, services, workers, server, async () => {
      await stopProjectionsLease();
      await services!.close();
      lock.release();
    });
  } catch (error) {
    await workers?.stop().catch(() => undefined);
    await stopProjectionsLease().catch(() => undefined);
    await services?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
};

const running = (
  url: string,
  adminToken: string,
  demo: QuickStart | null,
  services: Services,
  workers: Workers,
  server: Server,
  /** Gives up the projections lease, closes the stores and the data directory lock. */
  close: () => Promise<void>,
): RunningService => ({
  url,
  adminToken,
  demo,
  services,
  stop: async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await workers.stop();
    await close();
  },
});
