import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/config';
import { silentLogger } from '../infra/logger';
import { startService } from '../infra/server';
import { startBareExpress } from './bare-express';
import { formatResult, runLoad } from './load';

/**
 * `npm run bench`: throughput and latency over HTTP on the embedded profile, each scenario printed
 * beside the baseline it names (a bare Express JSON endpoint measured in the same run).
 */
const TOTAL = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const main = async (): Promise<void> => {
  process.stdout.write(`bench: ${TOTAL} requests per scenario, ${CONCURRENCY} concurrent, Node ${process.version}\n`);
  const bare = await startBareExpress();
  const json = { 'Content-Type': 'application/json' };
  const baseline = await runLoad(TOTAL, CONCURRENCY, (i) => ({
    url: `${bare.url}/echo`,
    init: { method: 'POST', headers: json, body: JSON.stringify({ name: `Org ${i}`, timezone: 'Europe/London' }) },
  }));
  await bare.close();
  process.stdout.write(`${formatResult('baseline: bare Express JSON POST', baseline)}\n`);

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-0123456789' }),
    silentLogger(),
  );
  const admin = { ...json, Authorization: `Bearer ${service.adminToken}` };
  const organisations = await runLoad(TOTAL, CONCURRENCY, (i) => ({
    url: `${service.url}/admin/v1/organisations`,
    init: {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: `Org ${i}`, timezone: 'Europe/London', default_currency: 'GBP' }),
    },
  }));
  process.stdout.write(`${formatResult('POST /admin/v1/organisations', organisations)}\n`);
  process.stdout.write(
    `  ratio to baseline: ${(organisations.perSecond / baseline.perSecond).toFixed(3)} of its throughput, p50 ${(organisations.p50Ms / baseline.p50Ms).toFixed(1)}× its latency\n`,
  );
  await service.stop();
};

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
