import { accountingSync, type AccountingSyncOptions } from './accounting-sync';
import type { WorkerDeps } from './deps';
import { statusPoller, type StatusPollerOptions } from './status-poller';
import { webhooks, type WebhookOptions } from './webhooks';

export type WorkerOptions = Readonly<{ accountingSync?: AccountingSyncOptions; poller: StatusPollerOptions; webhooks: WebhookOptions }>;

export type Workers = Readonly<{ stop(): Promise<void>; poll(): Promise<void> }>;

/** Starts every background worker of this process: each follows the log into its queue and takes jobs from it. */
export const startWorkers = async (deps: WorkerDeps, options: WorkerOptions): Promise<Workers> => {
  const sync = accountingSync(deps, options.accountingSync);
  const poller = statusPoller(deps, options.poller);
  const hooks = webhooks(deps, options.webhooks);
  await sync.start();
  await hooks.start();
  poller.start();
  return {
    poll: () => poller.poll(),
    stop: async () => {
      await poller.stop();
      await hooks.stop();
      await sync.stop();
    },
  };
};
