import { setTimeout as sleep } from 'node:timers/promises';
import { type RebuildObject, toRebuildObject } from '../../api/schemas/projections';
import { loadConfig } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import { DataDirectoryInUse, type DataDirectoryLock, lockDataDirectory } from '../../infra/service-lock';
import { openServices } from '../services';
import { adminClient, noTokenMessage } from './admin-client';
import { progressBar } from './progress-bar';
import { runCommand } from './run-command';

/** Draws a blue/green rebuild's progress until it has switched or failed; prints what `--verify` found. */
const follow = async (label: string, read: () => Promise<RebuildObject>): Promise<number> => {
  const bar = progressBar(label);
  for (;;) {
    const rebuild = await read();
    const done = rebuild.status !== 'running';
    // Positions stand in for events where the log numbers them otherwise: the total is estimated from the rate of both.
    const total = rebuild.position > 0 ? Math.round((rebuild.events * rebuild.head) / rebuild.position) : rebuild.events;
    bar.update(rebuild.events, done ? rebuild.events : total, done, rebuild.eta_seconds);
    if (rebuild.status === 'failed') {
      process.stderr.write(`\nrebuild failed: ${rebuild.error ?? 'unknown error'}; the live generation keeps serving\n`);
      return 1;
    }
    if (done) {
      bar.finish(rebuild.events);
      if (!rebuild.differences) return 0;
      process.stdout.write(`verify: ${rebuild.differences.length} difference(s) between the new generation and the live one\n`);
      for (const d of rebuild.differences) process.stdout.write(`  ${d.projection} ${d.collection} ${d.id}: ${d.difference}\n`);
      return rebuild.differences.length > 0 ? 4 : 0;
    }
    await sleep(200);
  }
};

/**
 * `npm run projections:rebuild [-- [--verify] [--offline] name …]`: rebuilds the read models (all,
 * or the named projections) into a new generation beside the live one and switches reads to it.
 * With a service running on the data directory the service does it, without downtime, and this
 * command follows it; otherwise it runs here. `--offline` truncates and replays instead, so it
 * refuses while the service runs.
 */
const main = async (): Promise<number> => {
  const args = process.argv.slice(2);
  const offline = args.includes('--offline');
  const verify = args.includes('--verify');
  const names = args.filter((arg) => !arg.startsWith('--'));
  const label = `rebuilding ${names.length ? names.join(', ') : 'all projections'}`;
  const config = loadConfig();
  // The lock the service holds: offline, a rebuild never runs under a live service, nor a service under a rebuild.
  let lock: DataDirectoryLock;
  try {
    lock = lockDataDirectory(config.DATA_DIR, 'projections:rebuild');
  } catch (error) {
    if (!(error instanceof DataDirectoryInUse)) throw error;
    if (offline || error.holder?.role !== 'service') {
      process.stderr.write(`${error.message}: stop it before rebuilding${offline ? ' offline, or rebuild without --offline' : ''}\n`);
      return 3;
    }
    // Beside the running service: the service rebuilds, this command follows it.
    const call = adminClient(config);
    if (!call) {
      process.stderr.write(noTokenMessage(config));
      return 2;
    }
    const started = await call('POST', '/admin/v1/projections/rebuild', JSON.stringify({ ...(names.length ? { projections: names } : {}), verify }));
    if (started.status !== 202) {
      process.stderr.write(`the service refused the rebuild: ${started.status} ${started.text}\n`);
      return started.status === 409 ? 3 : 2;
    }
    return follow(label, async () => JSON.parse((await call('GET', '/admin/v1/projections/rebuild')).text) as RebuildObject);
  }
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const services = await openServices(config, logger);
  try {
    const known = services.projections.projections.map((p) => p.name);
    const unknown = names.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      process.stderr.write(`unknown projection(s): ${unknown.join(', ')}; known: ${known.join(', ')}\n`);
      return 2;
    }
    await services.projections.init();
    if (offline) {
      const bar = progressBar(label);
      const events = await services.projections.replayInPlace(names.length ? names : null, (progress) =>
        bar.update(progress.events, Number(progress.head), progress.position >= progress.head),
      );
      bar.finish(events);
      return 0;
    }
    const rebuild = services.projections.startRebuild(names.length ? names : null, { verify });
    return await follow(label, () => Promise.resolve(toRebuildObject(rebuild)));
  } finally {
    await services.close();
    lock.release();
  }
};

runCommand('rebuild', main);
