import type { Server } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type AddressInfo, isIPv6, Server as NetServer } from 'node:net';
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

/** At most this long accepting what the kernel queued before the listener closes. */
const ACCEPT_QUEUED_MS = 1_000;

/**
 * Accepts the connections the kernel has queued for a busy loop (their clients have sent their
 * requests, and closing the listener resets them: under load, 82 of 100 creations were reset so in
 * one run), turn after turn of the loop until a turn brings none.
 */
const acceptQueued = async (server: Server): Promise<void> => {
  let accepted = 0;
  const count = () => void (accepted += 1);
  server.on('connection', count);
  const until = performance.now() + ACCEPT_QUEUED_MS;
  for (let before = -1; accepted !== before && performance.now() < until; ) {
    before = accepted;
    // Each turn polls the listener once.
    await nextTurn();
  }
  server.off('connection', count);
};

/**
 * Stops accepting connections, then waits for every open one to end, up to `graceMs`; past it,
 * closes those left. Resolves whether it had to. Not `server.close()`: since Node.js 19 it also
 * closes each connection it counts idle, and that includes one whose request has arrived but not
 * yet been read. A connection left idle ends at its keep-alive timeout (5 s); an answer given
 * while stopping closes its connection.
 */
const drain = async (server: Server, graceMs: number): Promise<boolean> => {
  await acceptQueued(server);
  return new Promise((resolve) => {
    let cut = false;
    const timer = setTimeout(() => {
      cut = true;
      server.closeAllConnections();
    }, graceMs);
    NetServer.prototype.close.call(server, () => {
      clearTimeout(timer);
      resolve(cut);
    });
  });
};

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
    let stopping = false;
    const { app } = createApp(apiDeps(services, adminToken, workers, () => stopping));
    const server = httpServer(app);
    // Once stopping, every answer closes its connection: a client's next request goes to another process.
    server.prependListener('request', (_req, res) => {
      if (stopping) res.setHeader('Connection', 'close');
    });
    const port = await listen(server, config.PORT, config.HOST);
    const url = reachableAt(config.HOST, port);
    logger.info({ url, host: config.HOST, console: `${url}/console` }, 'billing service listening');
    if (demo) process.stdout.write(quickStartBanner(url, demo));
    const stop = async () => {
      stopping = true;
      logger.info({ graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'stopping: no new connections, ready answers 503, requests in flight finishing');
      const cut = await drain(server, config.SHUTDOWN_GRACE_SECONDS * 1000);
      logger.info({ connectionsCut: cut }, cut ? 'stopping: grace period over, connections left open closed' : 'stopping: every request answered');
      // Leases given up (another process takes over at once), then each queue's running jobs finished, the group commit flushed, the stores closed.
      await workers!.stop();
      await stopProjectionsLease();
      await services!.close();
      lock.release();
      logger.info('stopped');
    };
    return { url, adminToken, demo, services, stop };
  } catch (error) {
    await workers?.stop().catch(() => undefined);
    await stopProjectionsLease().catch(() => undefined);
    await services?.close().catch(() => undefined);
    lock.release();
    throw error;
  }
};
