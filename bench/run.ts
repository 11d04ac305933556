import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import { silentLogger } from '../infra/logger';
import { startService } from '../service/server';
import { startBareExpress } from './bare-express';
import { formatResult, type LoadResult, runLoad } from './load';
import { scaleRows } from './scale';

/**
 * `npm run bench`: subscription creations over HTTP on the embedded profile (SQLite, the
 * demonstration accounting system in-process), each request raising and pushing a first invoice,
 * printed beside the baseline it names: a bare Express JSON endpoint measured in the same run.
 */
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const USAGE_BATCHES = Number(process.env.BENCH_USAGE_BATCHES ?? 300);
const EVENTS_PER_BATCH = 100;
// The API allows 120 requests a minute per key: spread the load over enough keys.
const REQUESTS_PER_KEY = 100;

const ratio = (label: string, result: LoadResult, baseline: LoadResult) =>
  `  ${label}: ${(result.perSecond / baseline.perSecond).toFixed(3)} × the baseline's throughput, p50 ${(result.p50Ms / baseline.p50Ms).toFixed(1)} ×, p99 ${(result.p99Ms / baseline.p99Ms).toFixed(1)} × its latency\n`;

const newKeys = async (url: string, adminToken: string, organisationId: string, count: number, scope: string): Promise<string[]> => {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/admin/v1/organisations/${organisationId}/api_keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ name: `bench ${scope} ${i}`, scopes: [scope] }),
    });
    keys.push(((await response.json()) as { key: string }).key);
  }
  return keys;
};

const main = async (): Promise<void> => {
  process.stdout.write(`bench: ${TOTAL} requests per scenario, ${CONCURRENCY} concurrent, Node ${process.version}\n`);
  const json = { 'Content-Type': 'application/json' };
  const body = JSON.stringify({ customer_code: 'ACME', plan_code: 'team', units: 3 });

  const bare = await startBareExpress();
  const baseline = await runLoad(TOTAL, CONCURRENCY, () => ({ url: `${bare.url}/echo`, init: { method: 'POST', headers: json, body } }));
  await bare.close();
  process.stdout.write(`${formatResult('baseline: bare Express JSON POST', baseline)}\n`);

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-0123456789' }),
    silentLogger(),
  );
  const sandboxId = service.demo!.sandboxId;
  const keys = await newKeys(service.url, service.adminToken, sandboxId, Math.ceil(TOTAL / REQUESTS_PER_KEY), 'subscriptions:write');
  const subscriptions = await runLoad(TOTAL, CONCURRENCY, (i) => ({
    url: `${service.url}/v1/subscriptions`,
    init: {
      method: 'POST',
      headers: { ...json, Authorization: `Bearer ${keys[Math.floor(i / REQUESTS_PER_KEY)]}`, 'Idempotency-Key': `bench-${i}` },
      body,
    },
  }));
  process.stdout.write(`${formatResult('POST /v1/subscriptions (+ first invoice)', subscriptions)}\n`);
  process.stdout.write(ratio('subscription creation', subscriptions, baseline));

  // Usage ingestion: batches of 100 events over HTTP, spread over one subscription per loop on the
  // usage-only plan (a request per batch against the rate limit, so a key per 100 batches).
  const usageKeys = await newKeys(service.url, service.adminToken, sandboxId, Math.ceil(USAGE_BATCHES / REQUESTS_PER_KEY), 'usage:write');
  const metered: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const response = await fetch(`${service.url}/v1/subscriptions`, {
      method: 'POST',
      headers: { ...json, Authorization: `Bearer ${keys[0]}`, 'Idempotency-Key': `bench-usage-${i}` },
      body: JSON.stringify({ customer_code: 'ACME', plan_code: 'api' }),
    });
    metered.push(((await response.json()) as { id: string }).id);
  }
  const usage = await runLoad(USAGE_BATCHES, CONCURRENCY, (i) => ({
    url: `${service.url}/v1/usage_events`,
    init: {
      method: 'POST',
      headers: { ...json, Authorization: `Bearer ${usageKeys[Math.floor(i / REQUESTS_PER_KEY)]}` },
      body: JSON.stringify({
        events: Array.from({ length: EVENTS_PER_BATCH }, (_, k) => ({
          event_id: `bench-${i}-${k}`,
          subscription: metered[i % metered.length],
          meter_code: 'api_calls',
          quantity: '1.5',
        })),
      }),
    },
  }));
  process.stdout.write(`${formatResult(`POST /v1/usage_events (${EVENTS_PER_BATCH} a batch)`, usage)}\n`);
  process.stdout.write(`  usage ingestion: ${(usage.perSecond * EVENTS_PER_BATCH).toFixed(0)} events/s\n`);
  process.stdout.write(ratio('usage batches', usage, baseline));
  await service.stop();
  if (subscriptions.failures > 0 || usage.failures > 0) process.exitCode = 1;

  await scaleRows((text) => process.stdout.write(text));
};

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
