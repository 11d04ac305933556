import { ConfigError, loadConfig } from '../infra/config';
import { createLogger } from '../infra/logger';
import { DataDirectoryInUse } from '../infra/service-lock';
import { startService } from './server';

const main = async (): Promise<void> => {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  let service;
  try {
    service = await startService(config, logger);
  } catch (error) {
    // A start that cannot happen is one line naming why, and an exit status; never a stack.
    process.stderr.write(`cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof DataDirectoryInUse ? 3 : 1);
  }
  // The first signal stops cleanly (exit 0); a second exits at once. Either way nothing acknowledged
  // is lost: a write is answered only once its commit is durable.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
};

void main();
