import { accountingSync, type AccountingSyncOptions } from './accounting-sync';
import type { WorkerDeps } from './deps';

export type WorkerOptions = Readonly<{ accountingSync?: AccountingSyncOptions }>;

export type Workers = Readonly<{ stop(): Promise<void> }>;

/** Starts every background worker of this process: each follows the log into its queue and takes jobs from it. */
export const startWorkers = async (deps: WorkerDeps, options: WorkerOptions = {}): Promise<Workers> => {
  const sync = accountingSync(deps, options.accountingSync);
  await sync.start();
  return {
    stop: async () => {
      await sync.stop();
    },
  };
};
