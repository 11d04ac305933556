import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ApiDeps } from '../api/deps';
import type { Lookups } from '../commands/plumbing/lookups';
import { usageStatesOf } from '../commands/plumbing/usage-states';
import { SqliteStateSnapshots } from '../infra/state-snapshots/sqlite';
import type { WorkerDeps } from '../workers/deps';
import type { WorkerOptions, Workers } from '../workers/workers';
import { testClockAdvancer } from '../workers/scheduler';
import { allProjections } from '../projections/read-models/all';
import { readModelLookups } from '../projections/queries/lookups';
import { UsageEventIdIndex } from '../projections/usage-ids/usage-event-ids';
import { ProjectionRunner } from '../projections/engine/runner';
import { startDemoAccountingThread } from '../demo/start-thread';
import { httpAccountingSystem } from '../infra/accounting/http-client';
import type { AccountingSystem } from '../infra/accounting/port';
import { type Clock, systemClock } from '../infra/clock/clock';
import { type Clocks, realClocks } from '../infra/clock/clocks';
import { commitGroup, enableGroupCommit } from '../infra/sqlite/group-commit';
import type { Config } from '../infra/config';
import type { EventStore } from '../infra/event-store/port';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { SqliteIdempotencyStore } from '../infra/idempotency/sqlite';
import { DEFAULT_IDEMPOTENCY, type IdempotencyStore } from '../infra/idempotency/port';
import type { JobQueues } from '../infra/jobs/port';
import { EmbeddedLeases } from '../infra/lease/embedded';
import type { Leases } from '../infra/lease/port';
import { SqliteJobQueues } from '../infra/jobs/sqlite';
import { sqliteAppendOutbox } from '../infra/jobs/append-outbox';
import type { Logger } from '../infra/logger';
import type { RateLimiter } from '../infra/rate-limit/port';
import { MemoryRateLimiter } from '../infra/rate-limit/memory';
import type { ReadStore } from '../infra/read-store/port';
import { SqliteReadStore } from '../infra/read-store/sqlite';
import { openDatabase, type SqliteDatabase } from '../infra/sqlite/open-database';
import { startWalCheckpointer } from '../infra/sqlite/wal-checkpointer';
import { type Resolver, systemResolver } from '../infra/webhooks/resolver';
import { sqliteRebuildPartitions } from './rebuild-partitions';

/** The ports wired for one process: each production URL switches one port, nothing else changes. */
export type Services = Readonly<{
  /** This process instance: owner of the idempotency locks and leases it takes. */
  instanceId: string;
  config: Config;
  logger: Logger;
  db: SqliteDatabase;
  store: EventStore;
  readStore: ReadStore;
  lookups: Lookups;
  /** Read from the log on first use; `startService` reads it before listening. */
  usageEventIds: UsageEventIdIndex;
  clocks: Clocks;
  projections: ProjectionRunner;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
  /** The workers' jobs: BullMQ on Redis with REDIS_URL, else the embedded queue in the SQLite file. */
  queues: JobQueues;
  /** Who runs each projection, log follower and poller: shared on Redis with REDIS_URL, else in this (only) process. */
  leases: Leases;
  accounting: AccountingSystem;
  /** DNS for webhook endpoint hosts (tests give their own answers). */
  resolver: Resolver;
  /** Where the accounting system answers (the in-process demonstration server unless ACCOUNTING_URL). */
  accountingUrl: string;
  close(): Promise<void>;
}>;

/** Real time, shifted by WALL_CLOCK_OFFSET_DAYS (0 in production). */
const offsetClock = (days: number): Clock => (days === 0 ? systemClock : { now: () => new Date(Date.now() + days * 86_400_000) });

export const databaseFile = (dataDir: string): string => join(dataDir, 'billing.sqlite');

/** The event log: EventStoreDB when EVENTSTORE_URL is set, else the SQLite file. */
export const openEventStore = async (config: Config, db: SqliteDatabase): Promise<EventStore> =>
  config.EVENTSTORE_URL
    ? new (await import('../infra/event-store/eventstoredb')).EventStoreDbEventStore(config.EVENTSTORE_URL)
    : new SqliteEventStore(db);

export const openServices = async (config: Config, logger: Logger, wallClock?: Clock, resolver: Resolver = systemResolver): Promise<Services> => {
  const db = openDatabase(databaseFile(config.DATA_DIR));
  // Concurrent requests' writes share one transaction and one fsync per loop turn.
  enableGroupCommit(db);
  const checkpointer = startWalCheckpointer(db, (error) => logger.error({ err: error }, 'the WAL checkpointer stopped; the service checkpoints on its own loop again'));
  // Production drivers load only when their URL is set.
  const store = await openEventStore(config, db);
  const storedReadModels: ReadStore = config.MONGO_URL
    ? await (await import('../infra/read-store/mongo')).MongoReadStore.connect(config.MONGO_URL, 'billing')
    : new SqliteReadStore(db);
  const clocks = realClocks(wallClock ?? offsetClock(config.WALL_CLOCK_OFFSET_DAYS));
  const redis = config.REDIS_URL ? new (await import('ioredis')).default(config.REDIS_URL, { maxRetriesPerRequest: 3 }) : null;
  const rateLimiter: RateLimiter = redis
    ? new (await import('../infra/rate-limit/redis')).RedisRateLimiter(redis)
    : new MemoryRateLimiter();
  const instanceId = randomUUID();
  const idempotency: IdempotencyStore = redis
    ? await (async () => {
        const { RedisIdempotencyStore, REDIS_IDEMPOTENCY } = await import('../infra/idempotency/redis');
        return new RedisIdempotencyStore(redis, undefined, { ...REDIS_IDEMPOTENCY, owner: instanceId });
      })()
    : new SqliteIdempotencyStore(db, { ...DEFAULT_IDEMPOTENCY, owner: instanceId }, () => clocks.wall.now().getTime());
  const leases: Leases = redis ? new (await import('../infra/lease/redis')).RedisLeases(redis) : new EmbeddedLeases();
  const queues: JobQueues = config.REDIS_URL
    ? new (await import('../infra/jobs/bullmq')).BullMqJobQueues({ url: config.REDIS_URL })
    : new SqliteJobQueues(db);
  // Without ACCOUNTING_URL the demonstration accounting system runs in-process, on a thread of its
  // own (its HTTP handling and ledger fsyncs off the service's loop), still reached over HTTP.
  const demoAccounting = config.ACCOUNTING_URL
    ? null
    : await startDemoAccountingThread({ port: 0, dbPath: join(config.DATA_DIR, 'demo-accounting.sqlite') });
  const accountingUrl = config.ACCOUNTING_URL ?? demoAccounting!.url;
  const accounting = httpAccountingSystem({ baseUrl: accountingUrl });
  // A rebuild on the embedded stores splits its replay by read model across threads.
  const partitions = store instanceof SqliteEventStore && storedReadModels instanceof SqliteReadStore ? sqliteRebuildPartitions(store, db.name, { threads: config.REBUILD_THREADS }) : undefined;
  const projections = new ProjectionRunner(store, storedReadModels, allProjections, logger.child({ component: 'projections' }), { partitions });
  // A snapshot in the data directory, whichever the log (one service a data directory: one writer).
  const usageEventIds = new UsageEventIdIndex(store, logger.child({ component: 'usage-event-ids' }), {
    snapshot: { path: join(config.DATA_DIR, 'usage-event-ids.snapshot'), everyIds: 250_000 },
  });
  // Kept usage states hold only the ids the index has not read yet; a state lost is read back from its snapshot.
  const usageStates = usageStatesOf(store);
  usageStates.readIdsFrom((subscriptionId) => usageEventIds.readThroughOf(subscriptionId));
  usageStates.keepSnapshotsIn({ snapshots: new SqliteStateSnapshots(db), onError: (error) => logger.error({ err: error }, 'usage state snapshot not written') });
  // Everything but the runner reads the live generation of each read model.
  const readStore = projections.readStore;
  logger.info(
    {
      eventStore: config.EVENTSTORE_URL ? 'eventstoredb' : 'sqlite',
      readStore: config.MONGO_URL ? 'mongodb' : 'sqlite',
      locks: config.REDIS_URL ? 'redis' : 'sqlite',
      jobs: queues.kind,
      accounting: config.ACCOUNTING_URL ?? 'demonstration server on its own thread',
      dataDir: config.DATA_DIR,
    },
    'stores opened',
  );
  return {
    instanceId,
    config,
    logger,
    db,
    store,
    readStore,
    lookups: readModelLookups(readStore, usageEventIds),
    usageEventIds,
    clocks,
    projections,
    rateLimiter,
    idempotency,
    queues,
    leases,
    resolver,
    accounting,
    accountingUrl,
    close: async () => {
      await projections.stop();
      await usageEventIds.stop();
      await queues.close();
      await demoAccounting?.close();
      await rateLimiter.close();
      await idempotency.close();
      redis?.disconnect();
      await store.close();
      await readStore.close();
      commitGroup(db);
      await checkpointer.close();
      db.close();
    },
  };
};

/** The HTTP layer's dependencies, taken from the process's services. */
export const apiDeps = (services: Services, adminToken: string, workers: Workers | null = null): ApiDeps => ({
  store: services.store,
  clocks: services.clocks,
  readStore: services.readStore,
  lookups: services.lookups,
  logger: services.logger,
  adminToken,
  rateLimiter: services.rateLimiter,
  idempotency: services.idempotency,
  accounting: services.accounting,
  resolveHost: services.resolver,
  allowLoopback: services.config.WEBHOOK_ALLOW_LOOPBACK,
  workersStatus: workers ? () => workers.status() : null,
  accountingPushWaitMs: services.config.ACCOUNTING_PUSH_WAIT_MS,
  waitForProjections: (position) => services.projections.waitFor(position),
  projections: services.projections,
  testClock: testClockAdvancer(workerDeps(services), { pushWaitMs: services.config.ACCOUNTING_PUSH_WAIT_MS }),
});

/** The workers' dependencies, taken from the process's services. */
export const workerDeps = (services: Services): WorkerDeps => ({
  store: services.store,
  readStore: services.readStore,
  clocks: services.clocks,
  queues: services.queues,
  leases: services.leases,
  instanceId: services.instanceId,
  accounting: services.accounting,
  logger: services.logger.child({ component: 'workers' }),
  waitForProjections: (position) => services.projections.waitFor(position),
  // The log and the queues in the one SQLite file: a job is added inside the append of its event.
  ...(services.store instanceof SqliteEventStore && services.queues instanceof SqliteJobQueues ? { appendOutbox: sqliteAppendOutbox(services.store) } : {}),
});

/** The workers' settings from the configuration: pushes at once, poll interval, webhook retry schedule, loopback endpoints. */
export const workerOptions = (services: Services): WorkerOptions => ({
  accountingSync: { concurrency: services.config.ACCOUNTING_PUSH_CONCURRENCY },
  poller: { intervalSeconds: services.config.ACCOUNTING_POLL_SECONDS },
  scheduler: { intervalSeconds: services.config.SCHEDULER_INTERVAL_SECONDS },
  webhooks: {
    resolver: services.resolver,
    allowLoopback: services.config.WEBHOOK_ALLOW_LOOPBACK,
    ...(services.config.WEBHOOK_RETRY_SCHEDULE ? { retryScheduleSeconds: services.config.WEBHOOK_RETRY_SCHEDULE } : {}),
  },
});
