import { join } from 'node:path';
import { startDemoAccountingServer } from '../../demo/start';
import { connectedOrganisation, deliveringEnv } from '../support/crash-world';
import { ensureBuilt, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { serviceClient } from '../support/service-client';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';
import { startReceiver } from '../support/webhook-receiver';

const ADMIN_TOKEN = 'billing-day-crash-admin-token';
const SUBSCRIPTIONS = 240;
/** The API allows 120 requests a minute per key. */
const PER_KEY = 80;

type Invoice = { id: string; subscription: string; lines: { revenue_type: string }[]; accounting: { sync_status: string } };

/**
 * A billing day killed half-way: 240 subscriptions renew on one date; the service, stopped before
 * it, starts again 40 days on (WALL_CLOCK_OFFSET_DAYS) and its scheduler raises their renewal
 * invoices in batches while the pushes to the accounting system hang (each held 300 ms) and the
 * webhooks go out; it is killed with kill -9 once some renewals are raised and before all are, and
 * started again. Nothing is lost or doubled: every subscription has exactly one renewal invoice,
 * the accounting system holds one document per invoice, and every renewal invoice is announced.
 */
describe('a billing day killed half-way', () => {
  beforeAll(ensureBuilt, 120_000);

  it('raises, pushes and announces every renewal exactly once after the restart', async () => {
    const dataDir = tempDir('billing-day-crash');
    const accounting = await startDemoAccountingServer({ port: 0, dbPath: join(dataDir, 'ledger.sqlite') });
    const receiver = await startReceiver();
    const env = { ...deliveringEnv(dataDir, ADMIN_TOKEN, accounting.url), SCHEDULER_INTERVAL_SECONDS: '1' };
    let service: ServiceProcess | null = null;
    try {
      service = await startServiceProcess(env);
      const call = serviceClient(() => service!.url, ADMIN_TOKEN);
      const { org, tenant } = await connectedOrganisation(call, 'Billing Day Ltd', 'UTC');
      const keys: string[] = [];
      for (let i = 0; i < SUBSCRIPTIONS / PER_KEY; i++) {
        keys.push((await call('POST', `/admin/v1/organisations/${org}/api_keys`, { name: `k${i}`, scopes: ['subscriptions:write', 'invoices:read'] })).body.key as string);
      }
      expect((await call('POST', `/admin/v1/organisations/${org}/webhook_endpoints`, { url: receiver.url('/day'), events: ['*'] })).status).toBe(201);
      for (let i = 0; i < SUBSCRIPTIONS; i += 20) {
        const created = await Promise.all(
          Array.from({ length: 20 }, (_, k) => call('POST', '/v1/subscriptions', { customer_code: 'C1', plan_code: 'flat' }, `Bearer ${keys[Math.floor((i + k) / PER_KEY)]}`, `day-${i + k}`)),
        );
        expect(created.map((response) => response.status)).toEqual(Array(20).fill(201));
      }
      const reader = `Bearer ${keys[0]}`;
      const invoices = async (): Promise<Invoice[]> => {
        const all: Invoice[] = [];
        for (let after: string | undefined; ; ) {
          const page = (await call('GET', `/v1/invoices?limit=100${after ? `&starting_after=${after}` : ''}`, undefined, reader)).body as { data: Invoice[]; has_more: boolean };
          all.push(...page.data);
          if (!page.has_more) return all;
          after = page.data[page.data.length - 1]!.id;
        }
      };
      const renewals = (all: readonly Invoice[]) => all.filter((invoice) => invoice.lines.some((line) => line.revenue_type === 'renewal'));
      expect(await service.stop()).toBe(0);

      // The pushes hang: they are in flight at the kill, with the scheduler's batches.
      await fetch(`${accounting.url}/control/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'slow', pathPrefix: `/tenants/${tenant}/invoices`, method: 'POST', count: 10_000, delayMs: 300 }),
      });
      service = await startServiceProcess({ ...env, WALL_CLOCK_OFFSET_DAYS: '40' });
      const raisedAtKill = await until('some renewal invoices raised, not all', async () => {
        const raised = renewals(await invoices()).length;
        return raised > 0 && raised;
      }, 30_000);
      await service.kill();
      expect(raisedAtKill).toBeLessThan(SUBSCRIPTIONS);
      await fetch(`${accounting.url}/control/faults`, { method: 'DELETE' });

      service = await startServiceProcess({ ...env, WALL_CLOCK_OFFSET_DAYS: '40' });
      const all = await until('every renewal invoice raised and synced', async () => {
        const listed = await invoices();
        return renewals(listed).length === SUBSCRIPTIONS && listed.every((invoice) => invoice.accounting.sync_status === 'synced') && listed;
      }, 60_000);
      // One renewal invoice per subscription, and one document in the accounting system per invoice.
      expect(new Set(renewals(all).map((invoice) => invoice.subscription)).size).toBe(SUBSCRIPTIONS);
      expect(all).toHaveLength(2 * SUBSCRIPTIONS);
      const ledger = (await (await fetch(`${accounting.url}/tenants/${tenant}/changes?since=1970-01-01T00:00:00.000Z`)).json()) as { invoices: { id: string }[] };
      expect(ledger.invoices).toHaveLength(2 * SUBSCRIPTIONS);
      const announced = () => new Set(receiver.received.filter((r) => r.body.type === 'invoice.created').map((r) => (r.body.data as { object: { id: string } }).object.id));
      await until('every renewal invoice announced', () => renewals(all).every((invoice) => announced().has(invoice.id)), 30_000);
    } finally {
      await service?.stop().catch(() => undefined);
      await receiver.close();
      await accounting.close();
    }
  }, 180_000);
});
