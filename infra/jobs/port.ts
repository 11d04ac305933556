/**
 * The job queue: at-least-once, delayed jobs, retries with backoff, and a job id that
 * de-duplicates (adding an id that is waiting, delayed, running or failed does nothing; a completed
 * job is forgotten, so its id may run again). A job taken by a process that dies runs again once
 * its lock expires. Data crosses as JSON.
 */
export type Job<T> = Readonly<{ id: string; data: T; /** 1 on the first run */ attempt: number }>;

export type RetryPolicy = Readonly<{
  /** Runs in all, the first included; then the job is failed. */
  attempts: number;
  /** Wait after the n-th failed run (n from 1). */
  delayMs: (failedRuns: number) => number;
}>;

export type QueueStats = Readonly<{ waiting: number; delayed: number; active: number; failed: number }>;

export type FailedJob = Readonly<{ id: string; error: string; attempts: number; failedAt: string }>;

export type ProcessOptions = Readonly<{ concurrency?: number }>;

export interface JobQueue<T> {
  readonly name: string;
  add(id: string, data: T, options?: { delayMs?: number }): Promise<void>;
  /** Starts taking jobs in this process; a handler's throw is a failed run (retried by the policy). */
  process(handler: (job: Job<T>) => Promise<void>, options?: ProcessOptions): void;
  stats(): Promise<QueueStats>;
  /** How long (ms) the longest-waiting job due to run has waited since it fell due; null when none is waiting. */
  oldestWaitMs(): Promise<number | null>;
  failed(limit?: number): Promise<FailedJob[]>;
  /** Runs a failed job again with its attempts reset; false when no such failed job. */
  retry(id: string): Promise<boolean>;
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>;
}

/** What a dashboard samples of a queue. */
export type QueueDepth = Pick<JobQueue<unknown>, 'name' | 'stats' | 'oldestWaitMs'>;

export type QueueOptions = Readonly<{
  /** How long a taken job stays locked without a heartbeat before another process may take it. */
  lockMs?: number;
}>;

export interface JobQueues {
  readonly kind: 'sqlite' | 'bullmq';
  queue<T>(name: string, policy: RetryPolicy): JobQueue<T>;
  /**
   * Called by a process that knows it is the only one on the queues (the embedded profile, under its
   * data directory lock): jobs left running by a process that died run again now instead of after
   * their lock lapses. BullMQ's stalled-job check does this on its own.
   */
  recoverAbandoned(): Promise<number>;
  close(): Promise<void>;
}

/** Thrown by a handler: the job fails now, whatever attempts remain (a refusal, not an outage). */
export class PermanentJobFailure extends Error {
  override name = 'PermanentJobFailure';
}

/** Exponential backoff from `baseMs`, doubling, capped at `maxMs`. */
export const exponentialDelay =
  (baseMs: number, maxMs: number) =>
  (failedRuns: number): number =>
    Math.min(maxMs, baseMs * 2 ** Math.max(0, failedRuns - 1));

/** A schedule of waits; the last repeats if runs remain. */
export const scheduleDelay =
  (delaysMs: readonly number[]) =>
  (failedRuns: number): number =>
    delaysMs[Math.min(failedRuns, delaysMs.length) - 1] ?? 0;

export const DEFAULT_LOCK_MS = 30_000;
