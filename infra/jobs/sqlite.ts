import type { SqliteDatabase } from '../sqlite/open-database';
import { stageInGroup, writeInGroup } from '../sqlite/group-commit';
import { settle } from '../sqlite/settle';
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

type Row = { id: string; data: string; attempts_made: number };

const POLL_MS = 200;

/**
 * The embedded job queue: one table in the SQLite file. A taken job is locked until a time its
 * runner keeps pushing forward; a job whose lock has lapsed (its process died) is taken again.
 */
export class SqliteJobQueues implements JobQueues {
  readonly kind = 'sqlite';
  private readonly queues = new Set<SqliteJobQueue<unknown>>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: QueueOptions = {},
  ) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS jobs (
        queue TEXT NOT NULL,
        id TEXT NOT NULL,
        data TEXT NOT NULL,
        status TEXT NOT NULL,
        run_at INTEGER NOT NULL,
        locked_until INTEGER NOT NULL DEFAULT 0,
        attempts_made INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        failed_at INTEGER,
        PRIMARY KEY (queue, id)
      );
      CREATE INDEX IF NOT EXISTS jobs_due ON jobs (queue, status, run_at);
    `);
  }

  queue<T>(name: string, policy: RetryPolicy): JobQueue<T> {
    const queue = new SqliteJobQueue<T>(this.db, name, policy, this.options.lockMs ?? DEFAULT_LOCK_MS);
    this.queues.add(queue as SqliteJobQueue<unknown>);
    return queue;
  }

  recoverAbandoned(): Promise<number> {
    return settle(() => this.db.prepare(`UPDATE jobs SET status = 'waiting', locked_until = 0 WHERE status = 'active'`).run().changes);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues].map((queue) => queue.close()));
  }
}

export class SqliteJobQueue<T> implements JobQueue<T> {
  private readonly statements;
  private readonly take: (now: number) => Row | undefined;
  private handler: ((job: Job<T>) => Promise<void>) | null = null;
  private concurrency = 1;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Jobs added inside a transaction not yet committed (`addInTransaction`): never taken before it is. */
  private readonly uncommitted = new Set<string>();
  /** When a take last looked for jobs whose lock has lapsed (see `take`). */
  private lookedForLapsed = 0;

  constructor(
    private readonly db: SqliteDatabase,
    readonly name: string,
    private readonly policy: RetryPolicy,
    private readonly lockMs: number,
  ) {
    this.statements = {
      add: db.prepare(`INSERT OR IGNORE INTO jobs (queue, id, data, status, run_at) VALUES (?, ?, ?, 'waiting', ?)`),
      // Each a range of the \`jobs_due\` index: the running jobs are a few (the runners' concurrency), the
      // waiting ones read in order; one statement for both read every row of the queue and sorted
      // them (about 10 ms a look with a billing day's 15,000 deliveries waiting).
      lapsed: db.prepare<[string, number, number], Row>(
        `SELECT id, data, attempts_made FROM jobs WHERE queue = ? AND status = 'active' AND locked_until <= ? ORDER BY run_at LIMIT ?`,
      ),
      waiting: db.prepare<[string, number, number], Row>(
        `SELECT id, data, attempts_made FROM jobs WHERE queue = ? AND status = 'waiting' AND run_at <= ? ORDER BY run_at LIMIT ?`,
      ),
      lock: db.prepare(
        `UPDATE jobs SET status = 'active', locked_until = ?
         WHERE queue = ? AND id = ? AND ((status = 'waiting' AND run_at <= ?) OR (status = 'active' AND locked_until <= ?))`,
      ),
      extend: db.prepare(`UPDATE jobs SET locked_until = ? WHERE queue = ? AND id = ? AND status = 'active'`),
      complete: db.prepare(`DELETE FROM jobs WHERE queue = ? AND id = ?`),
      again: db.prepare(
        `UPDATE jobs SET status = 'waiting', run_at = ?, attempts_made = ?, last_error = ?, locked_until = 0 WHERE queue = ? AND id = ?`,
      ),
      fail: db.prepare(
        `UPDATE jobs SET status = 'failed', attempts_made = ?, last_error = ?, failed_at = ?, locked_until = 0 WHERE queue = ? AND id = ?`,
      ),
      retry: db.prepare(
        `UPDATE jobs SET status = 'waiting', run_at = ?, attempts_made = 0, failed_at = NULL WHERE queue = ? AND id = ? AND status = 'failed'`,
      ),
      counts: db.prepare<[{ now: number; queue: string }], { waiting: number; delayed: number; active: number; failed: number }>(
        `SELECT
           COALESCE(SUM(status = 'waiting' AND run_at <= @now), 0) AS waiting,
           COALESCE(SUM(status = 'waiting' AND run_at > @now), 0) AS delayed,
           COALESCE(SUM(status = 'active'), 0) AS active,
           COALESCE(SUM(status = 'failed'), 0) AS failed
         FROM jobs WHERE queue = @queue`,
      ),
      failed: db.prepare<[string, number], { id: string; last_error: string | null; attempts_made: number; failed_at: number }>(
        `SELECT id, last_error, attempts_made, failed_at FROM jobs WHERE queue = ? AND status = 'failed' ORDER BY failed_at DESC LIMIT ?`,
      ),
      nextRun: db.prepare<[string], { next: number | null }>(`SELECT MIN(run_at) AS next FROM jobs WHERE queue = ? AND status = 'waiting'`),
    };
    // The first due job whose add is committed (this connection also sees the open group's rows),
    // looked for by a read: most looks find none, and cost no write. Its lock is a write in the turn's
    // group commit (IMMEDIATE), taken only if the job is still due there: two processes on one file
    // never take the same job. The job runs without waiting for the take's commit: were it lost, the
    // job would run again, as after a crash.
    //
    // Jobs whose lock has lapsed (their runner's process died) are looked for too at most every
    // POLL_MS, as the poll always did; in between, a take looks for waiting jobs only.
    this.take = (now) => {
      const limit = 1 + this.uncommitted.size;
      const lapsedToo = now - this.lookedForLapsed >= POLL_MS;
      if (lapsedToo) this.lookedForLapsed = now;
      const due = [...(lapsedToo ? this.statements.lapsed.all(this.name, now, limit) : []), ...this.statements.waiting.all(this.name, now, limit)];
      const row = due.find((job) => !this.uncommitted.has(job.id));
      if (!row) return undefined;
      return this.write(() => this.statements.lock.run(now + this.lockMs, this.name, row.id, now, now).changes) === 1 ? row : undefined;
    };
  }

  /**
   * The queue's own bookkeeping (take, heartbeat, completion, retry, failure): in the turn's group
   * commit, not waited for, so it never costs a commit (an `fsync` on the loop) of its own. At least
   * once either way: a bookkeeping write lost to a crash or a failed commit runs the job again.
   * Each is one statement (no savepoint: see `atomically`).
   */
  private write<R>(work: () => R): R {
    return stageInGroup(this.db, work, { oneStatement: true }).value;
  }

  add(id: string, data: T, options: { delayMs?: number } = {}): Promise<void> {
    return writeInGroup(this.db, () => {
      this.statements.add.run(this.name, id, JSON.stringify(data), Date.now() + (options.delayMs ?? 0));
      this.wake(options.delayMs ?? 0);
    });
  }

  /**
   * Adds the job inside the transaction open on this connection (an append's: see
   * `sqliteAppendOutbox`), synchronously: it commits with that transaction or not at all, a throw
   * fails it, and the job is looked for once it has committed. Returns that commit.
   */
  addInTransaction(id: string, data: T, options: { delayMs?: number } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    const { committed } = stageInGroup(this.db, () => this.statements.add.run(this.name, id, JSON.stringify(data), Date.now() + delayMs), { oneStatement: true });
    // Not taken before its commit: it could still be rolled back with the append of its event.
    this.uncommitted.add(id);
    committed.then(
      () => {
        this.uncommitted.delete(id);
        this.wake(delayMs);
      },
      () => this.uncommitted.delete(id),
    );
    return committed;
  }

  process(handler: (job: Job<T>) => Promise<void>, options: ProcessOptions = {}): void {
    this.handler = handler;
    this.concurrency = options.concurrency ?? 1;
    this.wake(0);
  }

  stats(): Promise<QueueStats> {
    return settle(() => this.statements.counts.get({ now: Date.now(), queue: this.name })!);
  }

  failed(limit = 100): Promise<FailedJob[]> {
    return settle(() =>
      this.statements.failed.all(this.name, limit).map((row) => ({
        id: row.id,
        error: row.last_error ?? '',
        attempts: row.attempts_made,
        failedAt: new Date(row.failed_at).toISOString(),
      })),
    );
  }

  retry(id: string): Promise<boolean> {
    return settle(() => {
      const changed = this.statements.retry.run(Date.now(), this.name, id).changes > 0;
      if (changed) this.wake(0);
      return changed;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }

  /** Looks for due jobs within `inMs` (sooner if already asked). */
  private wake(inMs: number): void {
    if (!this.handler || this.closed) return;
    const delay = Math.max(0, Math.min(inMs, POLL_MS));
    if (this.timer) {
      if (delay > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.fill();
    }, delay);
    this.timer.unref();
  }

  private fill(): void {
    if (this.closed || !this.handler) return;
    try {
      while (this.running.size < this.concurrency) {
        const row = this.take(Date.now());
        if (!row) break;
        const run = this.run(row)
          .catch(() => undefined)
          .finally(() => {
          this.running.delete(run);
          this.wake(0);
        });
        this.running.add(run);
      }
    } catch {
      // A busy database: look again on the next poll.
    }
    this.wake(POLL_MS);
  }

  private async run(row: Row): Promise<void> {
    const heartbeat = setInterval(() => {
      try {
        this.write(() => this.statements.extend.run(Date.now() + this.lockMs, this.name, row.id));
      } catch {
        // Missed beats only shorten the lock.
      }
    }, Math.max(10, Math.floor(this.lockMs / 3)));
    heartbeat.unref();
    const attempt = row.attempts_made + 1;
    try {
      await this.handler!({ id: row.id, data: JSON.parse(row.data) as T, attempt });
      this.write(() => this.statements.complete.run(this.name, row.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof PermanentJobFailure || attempt >= this.policy.attempts) {
        this.write(() => this.statements.fail.run(attempt, message, Date.now(), this.name, row.id));
      } else {
        this.write(() => this.statements.again.run(Date.now() + this.policy.delayMs(attempt), attempt, message, this.name, row.id));
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}
