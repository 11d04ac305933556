import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { organisationStream } from '../domain/organisation/events';
import { loadConfig } from '../infra/config';
import { silentLogger } from '../infra/logger';
import { openDatabase } from '../infra/sqlite/open-database';
import { SqliteIdempotencyStore } from '../infra/idempotency/sqlite';
import { startService } from '../service/server';
import { databaseFile, type Services } from '../service/services';
import { enableGroupCommit } from '../infra/sqlite/group-commit';
import { appendedEvent } from './appended-event';
import { heapMbAfterCollection } from './held-memory';
import { startBareExpress } from './bare-express';
import { type BillingDaySeed, serveBillingDay } from './billing-day-seed';
import { type ListSeed, serveLists } from './list-seed';

/**
 * The process under test, apart from the load generator's: `node dist/bench/serve.js bare|service`
 * starts the baseline or the service (embedded profile, demonstration accounting system on a
 * thread of its own), seeds the data sizes it is told (`BenchSeed` in the environment as JSON), sends
 * the parent what the load needs over IPC, and stops on the parent's 'stop' message (a CPU profile,
 * when started with `--cpu-prof`, is written then). `billing-day` and `lists` serve the billing-day
 * section's rows instead (`bench/billing-day-seed.ts`, `bench/list-seed.ts`).
 */
export type BenchSeed = Readonly<{
  /** Idempotency records stored before the load, unexpired, under other keys. */
  idempotencyRecords: number;
  /** Events appended to the sandbox organisation's stream before the load (every creation loads it). */
  organisationEvents: number;
  /** API keys to make, by scope. */
  keys: Readonly<Record<string, number>>;
  /** Usage-only subscriptions to make (one per concurrent connection of the usage row). */
  meteredSubscriptions: number;
}>;

export type Served = Readonly<{ url: string; keys: Record<string, string[]>; metered: string[] }>;

/** What the service did while the load ran, summed: divided by the requests, the per-request profile. */
export type WorkDone = {
  commits: number;
  writes: number;
  streamLoads: number;
  accountingCalls: number;
  /** CPU time of the server process: every thread (the demonstration accounting system's too). */
  cpuMs: number;
  /** CPU time of its main thread (the service's event loop), where Linux's /proc tells it; else null. */
  mainThreadCpuMs: number | null;
  /** The JS heap after the load, once collected: what the service keeps of what it was sent. */
  heapMb: number;
};

/** User + system CPU of this process's main thread, from /proc (clock ticks of 10 ms); null elsewhere. */
const mainThreadCpuMs = (): number | null => {
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
};

const ADMIN_TOKEN = 'bench-admin-token-0123456789';

const seedIdempotencyRecords = (dataDir: string, count: number): void => {
  const db = openDatabase(databaseFile(dataDir));
  new SqliteIdempotencyStore(db); // creates the table and its indexes as the service does
  const insert = db.prepare('INSERT INTO idempotency_records (scope, key, fingerprint, token, response, expires_ms) VALUES (?, ?, ?, NULL, ?, ?)');
  const response = JSON.stringify({ status: 201, body: { id: 'sub_seeded', object: 'subscription' } });
  const expires = Date.now() + 24 * 3600_000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(`key_seed_${i % 500}`, randomUUID(), 'f'.repeat(64), response, expires + i);
  })();
  db.close();
};

const post = async (url: string, token: string, body: unknown, idempotencyKey?: string): Promise<unknown> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`seeding ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
};

/**
 * Counts the service's commits (its connection's group commits, one fsync each; the demonstration
 * ledger's file commits apart), the writes that joined them, stream loads, calls to the
 * accounting system (each a round trip), and CPU time (the main thread's and the process's), from `reset()`.
 */
const countWork = (services: Services) => {
  const group = enableGroupCommit(services.db);
  const { store } = services;
  const readStream = store.readStream.bind(store);
  const readStreamToFold = store.readStreamToFold.bind(store);
  const counted = { streamLoads: 0, accountingCalls: 0 };
  store.readStream = (...args) => {
    counted.streamLoads += 1;
    return readStream(...args);
  };
  store.readStreamToFold = (...args) => {
    counted.streamLoads += 1;
    return readStreamToFold(...args);
  };
  // Every request node:http sends is published on this channel: those to the accounting system are its round trips.
  const accountingHost = new URL(services.accountingUrl).host;
  subscribe('http.client.request.start', (message) => {
    if ((message as { request: ClientRequest }).request.getHeader('host') === accountingHost) counted.accountingCalls += 1;
  });
  // The server process's CPU time (every thread), which other load on the machine does not inflate as it does the rate.
  const sum = () => {
    const cpu = process.cpuUsage();
    return { ...group.counts, cpuMs: (cpu.user + cpu.system) / 1000, mainThreadCpuMs: mainThreadCpuMs() };
  };
  let start = sum();
  return {
    reset: () => {
      start = sum();
      counted.streamLoads = 0;
      counted.accountingCalls = 0;
    },
    read: (): WorkDone => {
      const now = sum();
      return {
        ...counted,
        commits: now.commits - start.commits,
        writes: now.writes - start.writes,
        cpuMs: now.cpuMs - start.cpuMs,
        mainThreadCpuMs: now.mainThreadCpuMs === null || start.mainThreadCpuMs === null ? null : now.mainThreadCpuMs - start.mainThreadCpuMs,
        heapMb: heapMbAfterCollection(),
      };
    },
  };
};

const serveService = async (seed: BenchSeed) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
  if (seed.idempotencyRecords > 0) seedIdempotencyRecords(dataDir, seed.idempotencyRecords);
  const service = await startService(loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN }), silentLogger());
  const sandboxId = service.demo!.sandboxId;
  if (seed.organisationEvents > 0) {
    const { store } = service.services;
    const [first] = await store.readStream(organisationStream(sandboxId), 0, 1);
    const padding = Array.from({ length: seed.organisationEvents }, () =>
      appendedEvent('OrganisationSettingsChanged', { organisationId: sandboxId, changes: {} }, first!.metadata),
    );
    for (let i = 0; i < padding.length; i += 500) await store.append(organisationStream(sandboxId), padding.slice(i, i + 500), 'any');
    await service.services.projections.waitFor(await store.headPosition(), 60_000);
  }
  const keys: Record<string, string[]> = {};
  for (const [scope, count] of Object.entries(seed.keys)) {
    keys[scope] = [];
    for (let i = 0; i < count; i++) {
      const made = (await post(`${service.url}/admin/v1/organisations/${sandboxId}/api_keys`, ADMIN_TOKEN, { name: `bench ${scope} ${i}`, scopes: [scope] })) as { key: string };
      keys[scope].push(made.key);
    }
  }
  const metered: string[] = [];
  for (let i = 0; i < seed.meteredSubscriptions; i++) {
    const made = (await post(`${service.url}/v1/subscriptions`, service.demo!.apiKey, { customer_code: 'ACME', plan_code: 'api' }, `bench-usage-${i}`)) as { id: string };
    metered.push(made.id);
  }
  const stop = async () => {
    await service.stop();
    // A hundred megabytes after a row's load: not left behind.
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { served: { url: service.url, keys, metered }, stop, counter: countWork(service.services) };
};

/** What a target answers over IPC: `read` (the work counted since `reset`) or `counts` (the billing day's events so far). */
const served = async (target: string | undefined) => {
  if (target === 'bare') {
    const bare = await startBareExpress();
    return { ready: { url: `${bare.url}/echo`, keys: {}, metered: [] }, stop: bare.close, answer: () => null };
  }
  const seed: unknown = JSON.parse(process.env.BENCH_SEED ?? '{}');
  if (target === 'lists') {
    const lists = await serveLists(seed as ListSeed);
    return { ready: lists.served, stop: lists.stop, answer: () => null };
  }
  if (target === 'billing-day') {
    const day = await serveBillingDay(seed as BillingDaySeed);
    return { ready: day.served, stop: day.stop, answer: (message: string) => (message === 'counts' ? day.counts() : null) };
  }
  const service = await serveService(seed as BenchSeed);
  return {
    ready: service.served,
    stop: service.stop,
    answer: (message: string) => {
      if (message === 'reset') service.counter.reset();
      return message === 'read' ? service.counter.read() : null;
    },
  };
};

const main = async (): Promise<void> => {
  const running = await served(process.argv[2]);
  process.on('message', (message) => {
    if (message === 'stop') void running.stop().finally(() => process.exit(0));
    else {
      const answer = running.answer(String(message));
      if (message !== 'reset') process.send!({ answer });
    }
  });
  // The bench died (interrupted, or its output closed): no server left running on its own.
  process.on('disconnect', () => process.exit(0));
  process.send!({ ready: running.ready });
};

main().catch((error: unknown) => {
  process.stderr.write(`bench server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
