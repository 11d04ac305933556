import { join } from 'node:path';
import { startDemoAccountingServer } from '../../demo/start';
import { connectedOrganisation } from '../support/crash-world';
import { ensureBuilt, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { serviceClient } from '../support/service-client';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

const ADMIN_TOKEN = 'idem-crash-admin-token-0123';

describe('idempotency locks die with their process', () => {
  beforeAll(ensureBuilt, 120_000);

  it('answers the retries of requests interrupted by kill -9 promptly after the restart, with nothing lost or doubled', async () => {
    const dataDir = tempDir('idem-crash');
    const accounting = await startDemoAccountingServer({ port: 0, dbPath: join(dataDir, 'ledger.sqlite') });
    // Requests wait up to 10 s for their push: long enough to be holding their Idempotency-Key's lock at the kill.
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN, ACCOUNTING_URL: accounting.url, ACCOUNTING_PUSH_WAIT_MS: '10000', LOG_LEVEL: 'info' };
    let service: ServiceProcess | null = null;
    try {
      service = await startServiceProcess(env);
      const call = serviceClient(() => service!.url, ADMIN_TOKEN);
      const { org, tenant } = await connectedOrganisation(call, 'Locks Ltd');
      const key = (await call('POST', `/admin/v1/organisations/${org}/api_keys`, { name: 'k', scopes: ['subscriptions:read', 'subscriptions:write', 'invoices:read'] })).body.key as string;
      const auth = `Bearer ${key}`;
      const body = { customer_code: 'C1', plan_code: 'flat' };

      // Every push hangs, so every request has recorded its subscription and is waiting, its key locked.
      await fetch(`${accounting.url}/control/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'slow', pathPrefix: `/tenants/${tenant}/invoices`, method: 'POST', count: 100, delayMs: 8_000 }),
      });
      const keys = Array.from({ length: 6 }, (_, i) => `locked-${i}`);
      const interrupted = keys.map((k) => call('POST', '/v1/subscriptions', body, auth, k).catch(() => null));
      const recorded = await until('every request holds its lock, waiting for its push', async () => {
        const list = (await call('GET', '/v1/subscriptions?limit=100', undefined, auth)).body.data as { id: string }[];
        return list.length === keys.length && list;
      });
      expect((await call('POST', '/v1/subscriptions', body, auth, keys[0])).body.error.code).toBe('request_in_progress');
      await service.kill();
      expect(await Promise.all(interrupted)).toEqual(keys.map(() => null));
      await fetch(`${accounting.url}/control/faults`, { method: 'DELETE' });

      service = await startServiceProcess(env);
      const up = Date.now();
      const retries = await Promise.all(
        keys.map(async (k) => {
          const answer = await call('POST', '/v1/subscriptions', body, auth, k);
          return { ...answer, afterUpMs: Date.now() - up };
        }),
      );
      for (const retry of retries) {
        expect(retry.status).toBe(201);
        expect(retry.afterUpMs).toBeLessThan(2_000);
      }
      // Each retry found the subscription its interrupted request recorded: none lost, none made twice.
      expect(retries.map((r) => r.body.id).sort()).toEqual(recorded.map((s) => s.id).sort());
      expect((await call('GET', '/v1/subscriptions?limit=100', undefined, auth)).body.data).toHaveLength(keys.length);
      await until('every invoice synced', () => Promise.all(retries.map(async (r) => (await call('GET', `/v1/invoices/${r.body.invoice.id}`, undefined, auth)).body.accounting.sync_status)).then((s) => s.every((x) => x === 'synced')), 20_000);
      const ledger = (await (await fetch(`${accounting.url}/tenants/${tenant}/changes?since=1970-01-01T00:00:00.000Z`)).json()) as { invoices: { id: string }[] };
      expect(ledger.invoices).toHaveLength(keys.length);
      await service.printed(/idempotency locks left by a stopped process released/);
    } finally {
      await service?.stop().catch(() => undefined);
      await accounting.close();
    }
  }, 90_000);
});
