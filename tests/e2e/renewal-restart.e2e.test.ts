import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, startServiceProcess } from '../support/service-process';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

type Invoice = { id: string; lines: { revenue_type: string; description: string }[]; accounting: { sync_status: string } };

/**
 * The service is stopped across a renewal date: WALL_CLOCK_OFFSET_DAYS moves the real-time clock of
 * the next start 40 days on, past the renewal date of a monthly subscription (28 to 31 days away).
 * The scheduler catches up when it starts: the renewal invoice is raised and pushed once, the
 * subscription rolls over; a further restart on the same day raises nothing more.
 */
describe('a service stopped across a renewal date', () => {
  beforeAll(ensureBuilt, 120_000);

  it('raises the renewal invoice exactly once after it starts again', async () => {
    const dataDir = tempDir('renewal-restart');
    const env = { DATA_DIR: dataDir, SCHEDULER_INTERVAL_SECONDS: '1' };
    let service = await startServiceProcess(env);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const admin = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const call = async (path: string, body: object | null, headers: Record<string, string> = admin, method = body ? 'POST' : 'GET') => {
      const response = await fetch(`${service.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };

    const org = (await call('/admin/v1/organisations', { name: 'Renewals Ltd', timezone: 'UTC', default_currency: 'GBP', can_create_accounting_contacts: true })) as { id: string };
    await call(`/admin/v1/organisations/${org.id}/accounting/connect`, {});
    await call(`/admin/v1/organisations/${org.id}/accounting/accounts`, { revenue: '200' }, admin, 'PUT');
    await call(`/admin/v1/organisations/${org.id}/plans`, { code: 'flat', name: 'Flat', type: 'flat_fee', interval: { unit: 'month' }, currency: 'GBP', price: '25', status: 'active' });
    const { key } = (await call(`/admin/v1/organisations/${org.id}/api_keys`, { name: 'e2e', scopes: ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write'] })) as { key: string };
    const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    await call('/v1/customers', { code: 'C1', name: 'Customer One' }, auth);
    const subscription = (await call('/v1/subscriptions', { customer_code: 'C1', plan_code: 'flat' }, { ...auth, 'Idempotency-Key': 'restart-1' })) as { id: string; renewal_date: string };
    const invoices = async () => (((await call(`/v1/invoices?subscription=${subscription.id}`, null, auth)) as { data: Invoice[] }).data);
    expect(await invoices()).toHaveLength(1);
    expect(await service.stop()).toBe(0);

    service = await startServiceProcess({ ...env, WALL_CLOCK_OFFSET_DAYS: '40' });
    try {
      const renewals = await until('the renewal invoice raised and pushed', async () => {
        const found = (await invoices()).filter((invoice) => invoice.lines.some((line) => line.revenue_type === 'renewal'));
        return found.length > 0 && found.every((invoice) => invoice.accounting.sync_status === 'synced') && found;
      });
      expect(renewals).toHaveLength(1);
      expect(renewals[0]!.lines[0]!.description).toMatch(new RegExp(`^Period ${subscription.renewal_date} to `));
      const renewed = (await call(`/v1/subscriptions/${subscription.id}`, null, auth)) as { renewal_date: string };
      expect(renewed.renewal_date > subscription.renewal_date).toBe(true);
    } finally {
      expect(await service.stop()).toBe(0);
    }

    service = await startServiceProcess({ ...env, WALL_CLOCK_OFFSET_DAYS: '40' });
    try {
      // The scheduler runs at start and every second: give it a few runs.
      await service.printed(/"msg":"billing service listening"/);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect((await invoices()).filter((invoice) => invoice.lines.some((line) => line.revenue_type === 'renewal'))).toHaveLength(1);
      expect(await invoices()).toHaveLength(2);
    } finally {
      await service.stop();
    }
  }, 120_000);
});
