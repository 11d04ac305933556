import request from 'supertest';
import { quickStartService } from '../support/quick-start-service';
import { ensureBuilt, runNodeAsync, startServiceProcess } from '../support/service-process';
import { ADMIN_TOKEN } from '../support/test-service';

/** The table's lines as cells. */
const cells = (stdout: string) => stdout.trim().split('\n').map((line) => line.trim().split(/\s+/));

describe('npm run report', () => {
  beforeAll(ensureBuilt, 120_000);

  it('prints the rows the admin API answers, as a table or CSV, from the data directory or the running service', async () => {
    const { service, demo } = await quickStartService({ customer_code: 'ACME', plan_code: 'team', units: 3, start_date: '2026-01-15' }, 'report-1');
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const query = `from=2025-12&to=2026-03`;
    const rows = (await request(service.app).get(`/admin/v1/organisations/${demo.sandboxId}/reports/mrr?${query}`).set(service.admin)).body.data as Record<string, unknown>[];
    // team: 12.0000 a seat × 3 = 36.0000 new in January, then held.
    expect(rows.map((row) => [row.month, row.new, row.closing_mrr])).toEqual([
      ['2026-01', '36.0000', '36.0000'],
      ['2026-02', '0.0000', '36.0000'],
      ['2026-03', '0.0000', '36.0000'],
    ]);
    await service.close();
    const env = { DATA_DIR: service.dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN };
    const args = ['mrr', '--org', demo.sandboxId, '--from', '2025-12', '--to', '2026-03'];

    // The service stopped: the command reads the data directory itself.
    const offline = await runNodeAsync('service/cli/report.js', args, env);
    expect(offline.status).toBe(0);
    const [header, ...lines] = cells(offline.stdout);
    expect(header).toEqual(Object.keys(rows[0]!));
    expect(lines).toEqual(rows.map((row) => Object.values(row).map(String)));
    const csv = await runNodeAsync('service/cli/report.js', [...args, '--csv'], env);
    expect(csv.stdout.split('\n')[1]).toBe(Object.values(rows[0]!).join(','));
    expect((await runNodeAsync('service/cli/report.js', ['mrr', '--org', demo.sandboxId, '--from', '2026-04', '--to', '2026-03'], env)).status).toBe(2);
    const missing = await runNodeAsync('service/cli/report.js', ['revenue', '--org', 'org_missing', '--from', '2026-01', '--to', '2026-03'], env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('No organisation with id org_missing');

    // The service running on it: the command asks the service.
    const running = await startServiceProcess({ ...env, LOG_LEVEL: 'info' });
    try {
      const asked = await runNodeAsync('service/cli/report.js', args, { ...env, ADMIN_URL: running.url });
      expect(asked.status).toBe(0);
      expect(asked.stdout).toBe(offline.stdout);
    } finally {
      await running.stop();
    }
  }, 60_000);
});
