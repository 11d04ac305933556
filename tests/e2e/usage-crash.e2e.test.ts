import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoAccountingServer } from '../../demo/start';
import { planBodies } from '../support/catalogue-fixtures';
import { ensureBuilt, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { serviceClient } from '../support/service-client';
import { tempDir } from '../support/test-service';

const ADMIN_TOKEN = 'usage-crash-admin-token-0123';
type Batch = { event_id: string; subscription: string; meter_code: string; quantity: string }[];

describe('usage under load survives kill -9', () => {
  beforeAll(ensureBuilt, 120_000);

  it('keeps every acknowledged batch of random event ids, the WAL checkpointed into the file meanwhile', async () => {
    const dataDir = tempDir('usage-crash');
    const accounting = await startDemoAccountingServer({ port: 0, dbPath: join(dataDir, 'ledger.sqlite') });
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN, ACCOUNTING_URL: accounting.url, LOG_LEVEL: 'info' };
    let service: ServiceProcess | null = null;
    try {
      service = await startServiceProcess(env);
      const call = serviceClient(() => service!.url, ADMIN_TOKEN);
      const org = (await call('POST', '/admin/v1/organisations', { name: 'Meters Ltd', timezone: 'Europe/London', default_currency: 'GBP' })).body.id as string;
      await call('POST', `/admin/v1/organisations/${org}/accounting/connect`, {});
      await call('PUT', `/admin/v1/organisations/${org}/accounting/accounts`, { revenue: '200', usage_revenue: '270' });
      for (const code of ['api_calls', 'storage_gb']) expect((await call('POST', `/admin/v1/organisations/${org}/meters`, { code, name: code })).status).toBe(201);
      expect((await call('POST', `/admin/v1/organisations/${org}/plans`, { status: 'active', ...planBodies.no_base_fee })).status).toBe(201);
      expect((await call('POST', `/admin/v1/organisations/${org}/customers`, { code: 'C1', name: 'Customer One' })).status).toBe(201);
      const keys = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => (await call('POST', `/admin/v1/organisations/${org}/api_keys`, { name: `k${i}`, scopes: ['subscriptions:write', 'usage:write'] })).body.key as string),
      );
      const subscriptions: string[] = [];
      for (let i = 0; i < 4; i++) {
        const created = await call('POST', '/v1/subscriptions', { customer_code: 'C1', plan_code: 'metered' }, `Bearer ${keys[0]}`, `sub-${i}`);
        expect(created.status).toBe(201);
        subscriptions.push(created.body.id as string);
      }
      const file = join(dataDir, 'billing.sqlite');
      const fileBefore = statSync(file).size;

      // Eight clients send batches of 100 random ids until the service dies; each keeps the batches answered 200.
      const acknowledged: Batch[] = [];
      let killed = false;
      const client = async (c: number) => {
        for (let n = 0; !killed; n++) {
          const batch: Batch = Array.from({ length: 100 }, () => ({ event_id: randomUUID(), subscription: subscriptions[(c + n) % 4]!, meter_code: 'api_calls', quantity: '1' }));
          const answer = await call('POST', '/v1/usage_events', { events: batch }, `Bearer ${keys[c]}`).catch(() => null);
          if (answer?.status === 200) acknowledged.push(batch);
          // 120 requests a minute per key: a client past its limit stops, the others go on.
          if (answer?.status === 429) return;
        }
      };
      const clients = Array.from({ length: 8 }, (_, c) => client(c));
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      killed = true;
      await service.kill();
      await Promise.all(clients);
      expect(acknowledged.length).toBeGreaterThan(20);
      // Checkpoints copied the WAL into the file while the load ran.
      expect(statSync(file).size).toBeGreaterThan(fileBefore);

      service = await startServiceProcess(env);
      const resent = [];
      const moved = [];
      let key = '';
      for (const [i, batch] of acknowledged.entries()) {
        // A fresh key per 50 batches (100 requests) keeps under the rate limit.
        if (i % 50 === 0) key = (await call('POST', `/admin/v1/organisations/${org}/api_keys`, { name: `r${i}`, scopes: ['usage:write'] })).body.key as string;
        resent.push((await call('POST', '/v1/usage_events', { events: batch }, `Bearer ${key}`)).body);
        // The same ids on the next subscription: the organisation's id lookup knows every one after the restart.
        const elsewhere = batch.map((usage) => ({ ...usage, subscription: subscriptions[(subscriptions.indexOf(usage.subscription) + 1) % 4]! }));
        moved.push((await call('POST', '/v1/usage_events', { events: elsewhere }, `Bearer ${key}`)).body);
      }
      // Every event of every acknowledged batch was stored: sent again, each is a duplicate.
      expect(resent.every((answer) => answer.duplicates === 100)).toBe(true);
      expect(moved.every((answer) => answer.rejected === 100 && answer.results.every((r: { error?: { code: string } }) => r.error?.code === 'event_id_conflict'))).toBe(true);
    } finally {
      await service?.stop().catch(() => undefined);
      await accounting.close();
    }
  }, 120_000);
});
