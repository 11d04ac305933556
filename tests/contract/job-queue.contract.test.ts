import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { BullMqJobQueues } from '../../infra/jobs/bullmq';
import { type Job, type JobQueues, PermanentJobFailure, type RetryPolicy } from '../../infra/jobs/port';
import { SqliteJobQueues } from '../../infra/jobs/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { redisForTest, redisUrl } from '../support/redis';
import { ensureBuilt } from '../support/service-process';
import { tempDir } from '../support/test-service';

type Opened = {
  /** Another process's view of the same queues (a second service process). */
  open: () => JobQueues;
  /** Arguments of `job-taker.js` for this adapter and queue. */
  takerArgs: (queue: string) => string[];
  cleanup: () => Promise<void>;
};

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 8000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const quick: RetryPolicy = { attempts: 3, delayMs: (n) => 100 * n };
const root = join(__dirname, '..', '..');

const describeJobQueue = (name: string, setUp: () => Opened) =>
  describe(`JobQueue contract: ${name}`, () => {
    let opened: Opened;
    const toClose: JobQueues[] = [];
    const open = (): JobQueues => {
      const queues = opened.open();
      toClose.push(queues);
      return queues;
    };
    beforeAll(ensureBuilt, 120_000);
    beforeEach(() => {
      opened = setUp();
    });
    afterEach(async () => {
      await Promise.all(toClose.splice(0).map((queues) => queues.close()));
      await opened.cleanup();
    });

    it('runs an added job once with its data, then forgets it', async () => {
      const queue = open().queue<{ n: number }>('q', quick);
      const runs: Job<{ n: number }>[] = [];
      queue.process((job) => {
        runs.push(job);
        return Promise.resolve();
      });
      await queue.add('job-1', { n: 42 });
      await until(() => runs.length === 1);
      expect(runs[0]).toEqual({ id: 'job-1', data: { n: 42 }, attempt: 1 });
      await until(async () => (await queue.stats()).active === 0);
      expect(await queue.stats()).toEqual({ waiting: 0, delayed: 0, active: 0, failed: 0 });
      // Completed and forgotten: the same id runs again.
      await queue.add('job-1', { n: 43 });
      await until(() => runs.length === 2);
      expect(runs[1]!.data).toEqual({ n: 43 });
    });

    it('de-duplicates by job id while the job is waiting', async () => {
      const queue = open().queue<string>('q', quick);
      await queue.add('same', 'first');
      await queue.add('same', 'second');
      await queue.add('other', 'third');
      expect((await queue.stats()).waiting).toBe(2);
      const seen: string[] = [];
      queue.process((job) => {
        seen.push(job.data);
        return Promise.resolve();
      });
      await until(() => seen.length === 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.sort()).toEqual(['first', 'third']);
    });

    it('says how long its longest-waiting due job has waited, a delayed one not before its time', async () => {
      const queue = open().queue<string>('q', quick);
      expect(await queue.oldestWaitMs()).toBeNull();
      await queue.add('later', 'c', { delayMs: 60_000 });
      expect(await queue.oldestWaitMs()).toBeNull();
      await queue.add('first', 'a');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await queue.add('second', 'b');
      const waited = await queue.oldestWaitMs();
      expect(waited).toBeGreaterThanOrEqual(90);
      expect(waited).toBeLessThan(5_000);
    });

    it('holds a delayed job until its time', async () => {
      const queue = open().queue<string>('q', quick);
      const ranAt: number[] = [];
      queue.process(() => {
        ranAt.push(Date.now());
        return Promise.resolve();
      });
      const addedAt = Date.now();
      await queue.add('later', 'x', { delayMs: 700 });
      expect((await queue.stats()).delayed).toBe(1);
      await until(() => ranAt.length === 1);
      expect(ranAt[0]! - addedAt).toBeGreaterThanOrEqual(650);
    });

    it('retries a failing job with the backoff of its policy, counting attempts', async () => {
      const queue = open().queue<string>('q', { attempts: 5, delayMs: (n) => 200 * n });
      const runs: { attempt: number; at: number }[] = [];
      queue.process((job) => {
        runs.push({ attempt: job.attempt, at: Date.now() });
        return job.attempt < 3 ? Promise.reject(new Error(`down ${job.attempt}`)) : Promise.resolve();
      });
      await queue.add('flaky', 'x');
      await until(() => runs.length === 3);
      expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
      // After the first failure 200 ms, after the second 400 ms.
      expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(180);
      expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(380);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await queue.failed()).toEqual([]);
    });

    it('fails a job after its last attempt, lists it, and runs it again on retry', async () => {
      const queue = open().queue<string>('q', { attempts: 2, delayMs: () => 50 });
      let fixed = false;
      let runs = 0;
      queue.process(() => {
        runs += 1;
        return fixed ? Promise.resolve() : Promise.reject(new Error('still down'));
      });
      await queue.add('doomed', 'x');
      await until(async () => (await queue.stats()).failed === 1);
      expect(runs).toBe(2);
      const [failed] = await queue.failed();
      expect(failed).toMatchObject({ id: 'doomed', error: 'still down', attempts: 2 });
      // A failed job's id still de-duplicates: adding it again does not run it.
      await queue.add('doomed', 'x');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toBe(2);
      fixed = true;
      expect(await queue.retry('doomed')).toBe(true);
      expect(await queue.retry('nothing')).toBe(false);
      await until(() => runs === 3);
      await until(async () => (await queue.stats()).failed === 0);
    });

    it('fails at once on a permanent failure', async () => {
      const queue = open().queue<string>('q', { attempts: 10, delayMs: () => 50 });
      let runs = 0;
      queue.process(() => {
        runs += 1;
        return Promise.reject(new PermanentJobFailure('refused'));
      });
      await queue.add('refused', 'x');
      await until(async () => (await queue.stats()).failed === 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs).toBe(1);
      expect((await queue.failed())[0]).toMatchObject({ id: 'refused', error: 'refused' });
    });

    it('shares the jobs between two processes, each job run once', async () => {
      const a = open().queue<number>('q', quick);
      const b = open().queue<number>('q', quick);
      const ranBy = new Map<number, string[]>();
      const handler = (who: string) => (job: Job<number>) => {
        ranBy.set(job.data, [...(ranBy.get(job.data) ?? []), who]);
        return new Promise<void>((resolve) => setTimeout(resolve, 10));
      };
      a.process(handler('a'), { concurrency: 2 });
      b.process(handler('b'), { concurrency: 2 });
      await Promise.all(Array.from({ length: 30 }, (_, i) => a.add(`j${i}`, i)));
      await until(() => ranBy.size === 30);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...ranBy.values()].every((who) => who.length === 1)).toBe(true);
      const byA = [...ranBy.values()].filter(([who]) => who === 'a').length;
      expect(byA).toBeGreaterThan(0);
      expect(byA).toBeLessThan(30);
    });

    it('runs again a job taken by a process killed with kill -9', async () => {
      const queueName = `crash-${randomUUID().slice(0, 8)}`;
      const queue = open().queue<string>(queueName, quick);
      await queue.add('orphan', 'payload');
      const taker = spawn(process.execPath, [join(root, 'dist', 'tests', 'support', 'job-taker.js'), ...opened.takerArgs(queueName)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      taker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      taker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => taker.once('exit', resolve));
      await until(() => output.includes('taken orphan'), 15_000);
      taker.kill('SIGKILL');
      await exited;
      expect((await queue.stats()).active).toBe(1);
      const runs: Job<string>[] = [];
      queue.process((job) => {
        runs.push(job);
        return Promise.resolve();
      });
      await until(() => runs.length === 1, 10_000);
      expect(runs[0]).toMatchObject({ id: 'orphan', data: 'payload' });
    }, 30_000);
  });

describeJobQueue('sqlite', () => {
  const file = join(tempDir('jobs'), 'billing.sqlite');
  const dbs = [openDatabase(file)];
  return {
    open: () => {
      const db = openDatabase(file);
      dbs.push(db);
      return new SqliteJobQueues(db, { lockMs: 500 });
    },
    takerArgs: (queue) => ['sqlite', file, queue],
    cleanup: () => {
      for (const db of dbs) db.close();
      return Promise.resolve();
    },
  };
});

const url = redisUrl;
if (url) {
  describeJobQueue('bullmq on redis', () => {
    const { prefix, cleanup } = redisForTest();
    const bullPrefix = prefix.slice(0, -1);
    return {
      open: () => new BullMqJobQueues({ url, prefix: bullPrefix, lockMs: 500 }),
      takerArgs: (queue) => ['bullmq', url, bullPrefix, queue],
      cleanup,
    };
  });
} else {
  describe.skip('JobQueue contract: bullmq (skipped: REDIS_URL not set)', () => {
    it('runs against BullMQ on Redis when REDIS_URL is set', () => undefined);
  });
}
