import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import { silentLogger } from '../infra/logger';
import { startService } from '../service/server';
import { startBareExpress } from './bare-express';
import { formatResult, type LoadResult, runLoad } from './load';
import { formatRebuild, rebuildBench } from './rebuild';

/**
 * `npm run bench`: subscription creations over HTTP on the embedded profile (SQLite, the
 * demonstration accounting system in-process), each request raising and pushing a first invoice,
 * printed beside the baseline it names: a bare Express JSON endpoint measured in the same run.
 */
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const REBUILD_EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 200_000);
// The API allows 120 requests a minute per key: spread the load over enough keys.
const REQUESTS_PER_KEY = 100;

const ratio = (label: string, result: LoadResult, baseline: LoadResult) =>
  `  ${label}: ${(result.perSecond / baseline.perSecond).toFixed(3)} × the baseline's throughput, p50 ${(result.p50Ms / baseline.p50Ms).toFixed(1)} ×, p99 ${(result.p99Ms / baseline.p99Ms).toFixed(1)} × its latency\n`;

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
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(TOTAL / REQUESTS_PER_KEY); i++) {
    const response = await fetch(`${service.url}/admin/v1/organisations/${sandboxId}/api_keys`, {
      method: 'POST',
      headers: { ...json, Authorization: `Bearer ${service.adminToken}` },
      body: JSON.stringify({ name: `bench ${i}`, scopes: ['subscriptions:write'] }),
    });
    keys.push(((await response.json()) as { key: string }).key);
  }
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
  await service.stop();
  if (subscriptions.failures > 0) process.exitCode = 1;

  process.stdout.write(`\nrebuild: every read model from a log of at least ${REBUILD_EVENTS} events, beside a raw scan of the same log\n`);
  process.stdout.write(`${formatRebuild(await rebuildBench(REBUILD_EVENTS))}\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
