/**
 * A process that takes one job and never finishes it, for the crash test of the job queue
 * contract: the test kills it with SIGKILL once it prints `taken <id>`.
 * Arguments: sqlite <file> <queue> | bullmq <url> <prefix> <queue>; lock of 500 ms.
 */
import { BullMqJobQueues } from '../../infra/jobs/bullmq';
import type { JobQueues } from '../../infra/jobs/port';
import { SqliteJobQueues } from '../../infra/jobs/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';

const [kind, where, third, fourth] = process.argv.slice(2);
const lockMs = 500;
const queues: JobQueues =
  kind === 'sqlite' ? new SqliteJobQueues(openDatabase(where!), { lockMs }) : new BullMqJobQueues({ url: where!, prefix: third!, lockMs });
const queueName = kind === 'sqlite' ? third! : fourth!;
queues.queue<unknown>(queueName, { attempts: 5, delayMs: () => 100 }).process(async (job) => {
  process.stdout.write(`taken ${job.id}\n`);
  await new Promise(() => undefined);
});
// The embedded queue's timers do not hold a process open; this one does, until the kill.
setInterval(() => undefined, 1000);
