import { accountingSync, type AccountingSyncOptions } from './accounting-sync';
import type { WorkerDeps } from './deps';
import type { FollowerStatus } from './log-follower';
import { scheduler, type SchedulerOptions, type SchedulerStatus } from './scheduler';
import { type PollerStatus, statusPoller, type StatusPollerOptions } from './status-poller';
import { webhooks, type WebhookOptions } from './webhooks';

export type WorkerOptions = Readonly<{ accountingSync?: AccountingSyncOptions; poller: StatusPollerOptions; webhooks: WebhookOptions; scheduler: SchedulerOptions }>;

export type WorkersStatus = Readonly<{
  object: 'workers';
  queue_backend: 'sqlite' | 'bullmq';
  queues: { name: string; waiting: number; delayed: number; active: number; failed: number; failed_jobs: { id: string; error: string; attempts: number; failed_at: string }[] }[];
  followers: FollowerStatus[];
  poller: Omit<PollerStatus, 'name'>;
  scheduler: SchedulerStatus;
}>;

export type Workers = Readonly<{ stop(): Promise<void>; poll(): Promise<void>; schedule(): Promise<void>; status(): Promise<WorkersStatus> }>;

/** Starts every background worker of this process: each follows the log into its queue and takes jobs from it. */
export const startWorkers = async (deps: WorkerDeps, options: WorkerOptions): Promise<Workers> => {
  const sync = accountingSync(deps, options.accountingSync);
  const poller = statusPoller(deps, options.poller);
  const hooks = webhooks(deps, options.webhooks);
  const schedule = scheduler(deps, options.scheduler);
  await sync.start();
  await hooks.start();
  poller.start();
  schedule.start();
  return {
    poll: () => poller.poll(),
    schedule: () => schedule.run(),
    status: async () => {
      const queues = await Promise.all(
        [sync.queue, hooks.queue].map(async (queue) => ({
          name: queue.name,
          ...(await queue.stats()),
          failed_jobs: (await queue.failed(10)).map((job) => ({ id: job.id, error: job.error, attempts: job.attempts, failed_at: job.failedAt })),
        })),
      );
      const { name: _name, ...pollerStatus } = poller.status();
      return {
        object: 'workers',
        queue_backend: deps.queues.kind,
        queues,
        followers: await Promise.all([sync.follower.status(), hooks.follower.status()]),
        poller: pollerStatus,
        scheduler: schedule.status(),
      };
    },
    stop: async () => {
      await schedule.stop();
      await poller.stop();
      await hooks.stop();
      await sync.stop();
    },
  };
};
