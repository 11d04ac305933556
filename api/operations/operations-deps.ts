import type { QueueDepth } from '../../infra/jobs/port';

/** The stores the readiness probe asks, each by the cheapest answer it gives. */
export const STORE_CHECKS = ['event_store', 'read_store', 'locks', 'jobs'] as const;
export type StoreCheck = (typeof STORE_CHECKS)[number];

/** What the probes and `/metrics` read of the running process. */
export type OperationsDeps = Readonly<{
  /** Each store's cheapest answer: a throw, or no answer in time, fails its check. */
  stores: Readonly<Record<StoreCheck, () => Promise<unknown>>>;
  /** Each projection's lag in events (counted up to `atMost` where the store must read to count). */
  lagEvents: (atMost: number) => Promise<readonly Readonly<{ name: string; events: number }>[]>;
  /** READY_MAX_LAG_EVENTS: a projection further behind makes the process not ready. */
  maxLagEvents: number;
  /** True from the first stop signal on: ready answers 503 while requests in flight finish. */
  stopping: () => boolean;
  /** METRICS_TOKEN: `/metrics` takes it as a Bearer token; unset, `/metrics` answers loopback callers only. */
  metricsToken: string | null;
  /** The job queues this process's workers take from (none where no workers run). */
  queues: readonly QueueDepth[];
  /** Scheduled steps due and not yet run (null where the scheduler does not run in this process). */
  dueSteps: () => number | null;
}>;
