import { type ConnectionOptions, type Job as BullJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import {
  DEFAULT_LOCK_MS,
  type FailedJob,
  type Job,
  type JobQueue,
  type JobQueues,
  PermanentJobFailure,
  type ProcessOptions,
  type QueueOptions,
  type QueueStats,
  type RetryPolicy,
} from './port';

export type BullMqOptions = QueueOptions & Readonly<{ url: string; prefix?: string }>;

const connectionOf = (url: string): ConnectionOptions => {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.pathname.length > 1 ? { db: Number(parsed.pathname.slice(1)) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    // Workers block on Redis; BullMQ asks for no per-request retry limit.
    maxRetriesPerRequest: null,
  };
};

/**
 * BullMQ on Redis: the jobs of every service process in one place, shared by their workers. A job
 * whose worker died is found by the stalled-job check once its lock lapses and runs again.
 */
export class BullMqJobQueues implements JobQueues {
  readonly kind = 'bullmq';
  private readonly queues = new Set<BullMqJobQueue<unknown>>();

  constructor(private readonly options: BullMqOptions) {}

  queue<T>(name: string, policy: RetryPolicy): JobQueue<T> {
    const queue = new BullMqJobQueue<T>(name, policy, this.options);
    this.queues.add(queue);
    return queue;
  }

  recoverAbandoned(): Promise<number> {
    return Promise.resolve(0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues].map((queue) => queue.close()));
  }
}

class BullMqJobQueue<T> implements JobQueue<T> {
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly connection: ConnectionOptions;
  private readonly prefix: string;

  constructor(
    readonly name: string,
    private readonly policy: RetryPolicy,
    private readonly options: BullMqOptions,
  ) {
    this.connection = connectionOf(options.url);
    this.prefix = options.prefix ?? 'bull';
    this.queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
  }

  async add(id: string, data: T, options: { delayMs?: number } = {}): Promise<void> {
    await this.queue.add(this.name, data, {
      jobId: id,
      delay: options.delayMs ?? 0,
      attempts: this.policy.attempts,
      backoff: { type: 'policy' },
      // A completed job is forgotten so its id may run again; a failed one stays for operators.
      removeOnComplete: true,
      removeOnFail: false,
    });
  }

  process(handler: (job: Job<T>) => Promise<void>, options: ProcessOptions = {}): void {
    const lockDuration = this.options.lockMs ?? DEFAULT_LOCK_MS;
    this.worker = new Worker(
      this.name,
      async (job: BullJob) => {
        try {
          await handler({ id: job.id!, data: job.data as T, attempt: job.attemptsMade + 1 });
        } catch (error) {
          if (error instanceof PermanentJobFailure) throw new UnrecoverableError(error.message);
          throw error;
        }
      },
      {
        connection: this.connection,
        prefix: this.prefix,
        concurrency: options.concurrency ?? 1,
        lockDuration,
        stalledInterval: lockDuration,
        // A job taken by a process that died runs again, however often that happens.
        maxStalledCount: 1_000_000,
        settings: { backoffStrategy: (attemptsMade: number) => this.policy.delayMs(attemptsMade) },
      },
    );
    // Errors of the worker's own connection are retried by BullMQ; a listener keeps them from crashing the process.
    this.worker.on('error', () => undefined);
  }

  async stats(): Promise<QueueStats> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      delayed: counts.delayed ?? 0,
      active: counts.active ?? 0,
      failed: counts.failed ?? 0,
    };
  }

  async oldestWaitMs(): Promise<number | null> {
    // Oldest first; a job that was delayed has been due since its delay ran out.
    const [oldest] = await this.queue.getJobs(['waiting'], 0, 0, true);
    return oldest ? Math.max(0, Date.now() - oldest.timestamp - (oldest.delay ?? 0)) : null;
  }

  async failed(limit = 100): Promise<FailedJob[]> {
    const jobs = await this.queue.getFailed(0, limit - 1);
    return jobs.map((job) => ({
      id: job.id!,
      error: job.failedReason ?? '',
      attempts: job.attemptsMade,
      failedAt: new Date(job.finishedOn ?? job.timestamp).toISOString(),
    }));
  }

  async retry(id: string): Promise<boolean> {
    const job = await this.queue.getJob(id);
    if (!job || !(await job.isFailed())) return false;
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
