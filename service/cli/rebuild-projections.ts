import { loadConfig } from '../../infra/config';
import { createLogger } from '../../infra/logger';
import { DataDirectoryInUse, lockDataDirectory } from '../../infra/service-lock';
import { openServices } from '../services';
import { progressBar } from './progress-bar';

/**
 * `npm run projections:rebuild [-- name …]`: empties the read models and replays the whole log.
 * It truncates and replays, so it refuses while the service runs on the same data directory.
 */
const main = async (): Promise<void> => {
  const config = loadConfig();
  // The same lock the service holds: a rebuild never runs under a live service, nor a service under a rebuild.
  let lock;
  try {
    lock = lockDataDirectory(config.DATA_DIR, 'projections:rebuild');
  } catch (error) {
    if (!(error instanceof DataDirectoryInUse)) throw error;
    process.stderr.write(`${error.message}: stop it before rebuilding\n`);
    process.exit(3);
  }
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const services = await openServices(config, logger);
  const names = process.argv.slice(2);
  const known = services.projections.projections.map((p) => p.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown projection(s): ${unknown.join(', ')}; known: ${known.join(', ')}\n`);
    process.exit(2);
  }
  await services.projections.init();
  const bar = progressBar(`rebuilding ${names.length ? names.join(', ') : 'all projections'}`);
  const events = await services.projections.rebuild(names.length ? names : null, (progress) =>
    bar.update(progress.events, Number(progress.head), progress.position >= progress.head),
  );
  bar.finish(events);
  await services.close();
  lock.release();
};

main().catch((error: unknown) => {
  process.stderr.write(`rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
