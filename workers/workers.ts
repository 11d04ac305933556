import { type LeasedWork, whileLeased } from '../infra/lease/while-leased';
import { WEBHOOK_DELIVERY_INDEXES } from '../infra/webhooks/deliveries';
import { accountingSync, type AccountingSyncOptions } from './accounting-sync';
import type { WorkerDeps } from './deps';
import type { FollowerStatus } from './log-follower';
import { scheduler, type SchedulerOptions, type SchedulerStatus } from './scheduler';
import { type PollerStatus, statusPoller, type StatusPollerOptions } from './status-poller';
import { webhooks, type WebhookOptions } from './webhooks';

export type WorkerOptions = Readonly<{
  accountingSync?: AccountingSyncOptions;
  poller: StatusPollerOptions;
  webhooks: WebhookOptions;
  scheduler: SchedulerOptions;
  /** How long each worker's lease lives unrenewed (how soon another process takes over a dead one's). */
  leaseMs?: number;
}>;

export type WorkersStatus = Readonly<{
  object: 'workers';
  queue_backend: 'sqlite' | 'bullmq';
  queues: { name: string; waiting: number; delayed: number; active: number; failed: number; failed_jobs: { id: string; error: string; attempts: number; failed_at: string }[] }[];
  followers: FollowerStatus[];
  instance_id: string;
  leases: { name: string; held: boolean }[];
  poller: Omit<PollerStatus, 'name'>;
  scheduler: SchedulerStatus;
}>;

export type Workers = Readonly<{ stop(): Promise<void>; poll(): Promise<void>; schedule(): Promise<void>; status(): Promise<WorkersStatus> }>;

/** Starts every background worker of this process: each follows the log into its queue and takes jobs from it. */
export const startWorkers = async (deps: WorkerDeps, options: WorkerOptions): Promise<Workers> => {
  await deps.readStore.ensureIndexes(WEBHOOK_DELIVERY_INDEXES);
  const sync = accountingSync(deps, options.accountingSync);
  const poller = statusPoller(deps, options.poller);
  const hooks = webhooks(deps, options.webhooks);
  const schedule = scheduler(deps, options.scheduler);
  // Every process takes jobs; only the lease holder of each outbox, of the poller and of the scheduler runs it
  // (two schedulers at once would still raise nothing twice: each step is decided once).
  sync.processJobs();
  hooks.processJobs();
  const leased = (name: string, work: LeasedWork) => whileLeased(deps.leases, name, deps.instanceId, work, { logger: deps.logger, ...(options.leaseMs ? { ttlMs: options.leaseMs } : {}) });
  const names = ['worker:accounting-sync', 'worker:webhooks', 'worker:status-poller', 'worker:scheduler'] as const;
  const runs = [leased(names[0], sync.follower), leased(names[1], hooks.follower), leased(names[2], poller), leased(names[3], schedule)];
  await Promise.all(runs.map((run) => run.ready));
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
        instance_id: deps.instanceId,
        leases: runs.map((run, i) => ({ name: names[i]!, held: run.held() })),
        poller: pollerStatus,
        scheduler: schedule.status(),
      };
    },
    stop: async () => {
      await Promise.all(runs.map((run) => run.stop()));
    },
  };
};
