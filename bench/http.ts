import { randomUUID } from 'node:crypto';
import { formatRatio, formatResult, type LoadRequest, type LoadResult, runLoad } from './load';
import type { RowFigures } from './rounds';
import type { BenchSeed, Served, WorkDone } from './serve';
import { startServed } from './served-process';

export type HttpOptions = Readonly<{
  requests: number;
  /** Requests sent before each row's measured load and not counted: the JIT compiles the hot paths during the first few hundred. */
  warmup: number;
  connections: number;
  usageBatches: number;
  /** A usage row per kind of event id, in this order: `ordered` (bench-<batch>-<n>), `random` (UUIDs). */
  usageIds: readonly UsageIds[];
  idempotencyRecords: number;
  organisationEvents: number;
  /** Where the servers write CPU profiles (`--cpu-prof`); null for none. */
  profileDir: string | null;
  /** The service rows to run (`creations`, `usage`, `seeded`); the baseline always runs. */
  rows: ReadonlySet<string>;
}>;

export const HTTP_ROWS = ['creations', 'usage', 'seeded'] as const;
export const USAGE_IDS = ['ordered', 'random'] as const;
export type UsageIds = (typeof USAGE_IDS)[number];

// The API allows 120 requests a minute per key: the load is spread over enough keys.
const REQUESTS_PER_KEY = 100;
const EVENTS_PER_BATCH = 100;

const formatWork = (work: WorkDone, requests: number): string => {
  const each = (n: number) => (n / requests).toFixed(2);
  const mainThread = work.mainThreadCpuMs === null ? '' : ` (main thread ${each(work.mainThreadCpuMs)} ms)`;
  return `  per request: ${each(work.commits)} commits (fsyncs) shared by ${each(work.writes)} writes, ${each(work.streamLoads)} stream loads, ${each(work.accountingCalls)} accounting round trips, ${each(work.cpuMs)} ms server CPU${mainThread}; heap after ${work.heapMb} MB`;
};

/** Starts `bench/serve.ts` in its own process, and measures a load against it with the work the service counted. */
const startServer = async (target: 'bare' | 'service', seed: BenchSeed | null, profileDir: string | null) => {
  const served = await startServed<Served>(target, seed, profileDir);
  /** Runs `warmup` (not counted), then `load`, and reads what the service did for `load`. */
  const measure = async (warmup: () => Promise<unknown>, load: () => Promise<LoadResult>): Promise<LoadResult & { work: WorkDone | null }> => {
    await warmup();
    await served.ask('reset');
    const result = await load();
    return { ...result, work: await served.ask<WorkDone>('read') };
  };
  return { served: served.ready, origin: new URL(served.ready.url).origin, measure, stop: served.stop };
};

const creations = (served: Served, runLabel: string) => (i: number) => ({
  path: '/v1/subscriptions',
  headers: { authorization: `Bearer ${served.keys['subscriptions:write']![Math.floor(i / REQUESTS_PER_KEY)]}`, 'idempotency-key': `${runLabel}-${i}` },
  body: JSON.stringify({ customer_code: 'ACME', plan_code: 'team', units: 3 }),
});

/**
 * The HTTP rows, each load sent by autocannon at the same number of connections: the baseline (a
 * bare Express JSON POST), subscription creations on an empty database, the same with stored
 * idempotency records and a long organisation stream, and usage ingestion in batches of 100.
 * Prints each row as it is measured; answers whether every request succeeded.
 */
export const httpBench = async (options: HttpOptions, print: (line: string) => void): Promise<Readonly<{ ok: boolean; figures: RowFigures[] }>> => {
  const { requests, connections } = options;
  const results: LoadResult[] = [];
  const figures: RowFigures[] = [];
  let baseline: LoadResult | null = null;
  const row = (label: string, result: LoadResult & { work?: WorkDone | null }, empty: LoadResult | null = null) => {
    results.push(result);
    print(formatResult(label, result));
    if (result.work) print(formatWork(result.work, result.requests));
    const each = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : ms / result.requests);
    figures.push({
      label,
      perSecond: result.perSecond,
      p99Ms: result.p99Ms,
      ratio: baseline ? result.perSecond / baseline.perSecond : null,
      toEmpty: empty ? result.perSecond / empty.perSecond : null,
      cpuMs: each(result.work?.cpuMs),
      mainMs: each(result.work?.mainThreadCpuMs),
    });
    return result;
  };

  const { warmup } = options;
  /** The warm-up's requests follow the measured ones' (`total` on): their own API keys, Idempotency-Keys and event ids. */
  const warmThenLoad = (origin: string, total: number, makeRequest: (i: number) => LoadRequest) =>
    [() => (warmup > 0 ? runLoad(origin, warmup, connections, (i) => makeRequest(total + i)) : Promise.resolve()), () => runLoad(origin, total, connections, makeRequest)] as const;
  /** API keys for `runs` loads of `requests` each, their warm-ups too. */
  const keysFor = (runs: number, requests: number) => Math.ceil((runs * (requests + warmup)) / REQUESTS_PER_KEY) + 1;

  const bare = await startServer('bare', null, null);
  const body = JSON.stringify({ customer_code: 'ACME', plan_code: 'team', units: 3 });
  baseline = row('baseline: bare Express JSON POST', await bare.measure(...warmThenLoad(bare.origin, requests * 5, () => ({ path: '/echo', headers: {}, body }))));
  await bare.stop();

  const { rows } = options;
  const measured: LoadResult[] = [];
  let created: LoadResult | null = null;
  if (rows.has('creations') || rows.has('usage')) {
    const empty = await startServer(
      'service',
      {
        idempotencyRecords: 0,
        organisationEvents: 0,
        keys: { 'subscriptions:write': rows.has('creations') ? keysFor(1, requests) : 0, 'usage:write': rows.has('usage') ? keysFor(options.usageIds.length, options.usageBatches) : 0 },
        meteredSubscriptions: rows.has('usage') ? connections : 0,
      },
      options.profileDir,
    );
    if (rows.has('creations')) {
      created = row('POST /v1/subscriptions (+ first invoice)', await empty.measure(...warmThenLoad(empty.origin, requests, creations(empty.served, 'empty'))));
      print(formatRatio('subscription creation', created, baseline));
      measured.push(created);
    }
    if (rows.has('usage')) {
      // Usage ingestion: one usage-only subscription per connection, so batches append to different streams.
      const { metered } = empty.served;
      for (const [run, ids] of options.usageIds.entries()) {
        // Ordered ids sort in the order they arrive; random ones (UUIDs, what most integrators send) land all over the id index.
        const eventId = ids === 'random' ? () => randomUUID() : (i: number, k: number) => `bench-${i}-${k}`;
        // Each run's requests (its warm-up's too) take API keys of their own.
        const first = run * (options.usageBatches + warmup);
        const usage = row(
          `POST /v1/usage_events (${EVENTS_PER_BATCH} a batch, ${ids} ids)`,
          await empty.measure(
            ...warmThenLoad(empty.origin, options.usageBatches, (n) => {
              const i = first + n;
              return {
                path: '/v1/usage_events',
                headers: { authorization: `Bearer ${empty.served.keys['usage:write']![Math.floor(i / REQUESTS_PER_KEY)]}` },
                body: JSON.stringify({
                  events: Array.from({ length: EVENTS_PER_BATCH }, (_, k) => ({ event_id: eventId(i, k), subscription: metered[i % metered.length], meter_code: 'api_calls', quantity: '1.5' })),
                }),
              };
            }),
          ),
        );
        print(`  usage ingestion: ${(usage.perSecond * EVENTS_PER_BATCH).toFixed(0)} events/s (durable, de-duplicated by event_id)`);
        print(formatRatio('usage batches', usage, baseline));
        measured.push(usage);
      }
    }
    await empty.stop();
  }

  if (rows.has('seeded')) {
    const seeded = await startServer(
      'service',
      { idempotencyRecords: options.idempotencyRecords, organisationEvents: options.organisationEvents, keys: { 'subscriptions:write': keysFor(1, requests) }, meteredSubscriptions: 0 },
      options.profileDir,
    );
    const withData = row(
      `  … ${options.idempotencyRecords} idempotency records, ${options.organisationEvents}-event org`,
      await seeded.measure(...warmThenLoad(seeded.origin, requests, creations(seeded.served, 'seeded'))),
      created,
    );
    print(formatRatio('with data', withData, baseline));
    if (created) print(`  with data: ${(withData.perSecond / created.perSecond).toFixed(3)} × the empty-database figure`);
    measured.push(withData);
    await seeded.stop();
  }

  const slowest = Math.max(0, ...measured.map((result) => result.perSecond));
  if (baseline.perSecond < 3 * slowest) {
    print(`  note: the baseline is less than 3 × the service figures; the load generator may be limiting them`);
  }
  return { ok: results.every((result) => result.failures === 0), figures };
};
