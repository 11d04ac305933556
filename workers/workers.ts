import { accountingSync, type AccountingSyncOptions } from './accounting-sync';
import type { WorkerDeps } from './deps';
import { statusPoller, type StatusPollerOptions } from './status-poller';

export type WorkerOptions = Readonly<{ accountingSync?: AccountingSyncOptions; poller?: StatusPollerOptions }>;

export type Workers = Readonly<{ stop(): Promise<void> }>;

/** Starts every background worker of this process: each follows the log into its queue and takes jobs from it. */
export const startWorkers = async (deps: WorkerDeps, options: WorkerOptions = {}): Promise<Workers> => {
  const sync = accountingSync(deps, options.accountingSync);
  const poller = statusPoller(deps, options.poller ?? { intervalSeconds: 60 });
  await sync.start();
  poller.start();
  return {
    stop: async () => {
      await poller.stop();
      await sync.stop();
    },
  };
};
