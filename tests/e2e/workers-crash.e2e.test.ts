import { join } from 'node:path';
import { startDemoAccountingServer } from '../../demo/start';
import { planBodies } from '../support/catalogue-fixtures';
import { connectedOrganisation, deliveringEnv } from '../support/crash-world';
import { ensureBuilt, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { serviceClient } from '../support/service-client';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';
import { startReceiver, verifySignature } from '../support/webhook-receiver';

const ADMIN_TOKEN = 'crash-test-admin-token-0123';

describe('workers survive kill -9', () => {
  beforeAll(ensureBuilt, 120_000);

  it('syncs every invoice and credit note once and delivers every webhook at least once, signed, after the service is killed mid-flight', async () => {
    const dataDir = tempDir('workers-crash');
    const accounting = await startDemoAccountingServer({ port: 0, dbPath: join(dataDir, 'ledger.sqlite') });
    const receiver = await startReceiver();
    const env = { ...deliveringEnv(dataDir, ADMIN_TOKEN, accounting.url), ACCOUNTING_POLL_SECONDS: '1' };
    let service: ServiceProcess | null = null;
    try {
      service = await startServiceProcess(env);
      const call = serviceClient(() => service!.url, ADMIN_TOKEN);
      const { org, tenant } = await connectedOrganisation(call, 'Crash Ltd');
      expect((await call('POST', `/admin/v1/organisations/${org}/plans`, planBodies.per_unit)).status).toBe(201);
      const key = (await call('POST', `/admin/v1/organisations/${org}/api_keys`, { name: 'k', scopes: ['subscriptions:write', 'invoices:read', 'credit_notes:read'] })).body.key as string;
      const endpoint = await call('POST', `/admin/v1/organisations/${org}/webhook_endpoints`, { url: receiver.url('/crash'), events: ['*'] });
      expect(endpoint.status).toBe(201);
      const secret = endpoint.body.secret as string;
      // Subscriptions whose units go down while the pushes hang: each decrease raises a credit note.
      const seats = await Promise.all(
        [0, 1, 2].map(async (i) => (await call('POST', '/v1/subscriptions', { customer_code: 'C1', plan_code: 'seats', units: 5 }, `Bearer ${key}`, `seats-${i}`)).body as { id: string; start_date: string }),
      );

      // Pushes hang for 2 s and the receiver holds its first answers: both are in flight at the kill.
      await fetch(`${accounting.url}/control/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'slow', pathPrefix: `/tenants/${tenant}/invoices`, method: 'POST', count: 100, delayMs: 2000 }),
      });
      await fetch(`${accounting.url}/control/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'slow', pathPrefix: `/tenants/${tenant}/credit_notes`, method: 'POST', count: 100, delayMs: 2000 }),
      });
      receiver.hold(20, 3000);
      const keys = Array.from({ length: 6 }, (_, i) => `crash-${i}`);
      const inFlight = [
        ...keys.map((k) => call('POST', '/v1/subscriptions', { customer_code: 'C1', plan_code: 'flat' }, `Bearer ${key}`, k).catch(() => null)),
        ...seats.map((sub) => call('POST', `/v1/subscriptions/${sub.id}/units`, { units: 3, prorate: true, effective_date: sub.start_date }, `Bearer ${key}`, `down-${sub.id}`).catch(() => null)),
      ];
      await until('deliveries in flight', () => receiver.received.length >= 2, 10_000);
      await until('credit notes raised, their pushes in flight', async () => (await call('GET', '/v1/credit_notes?limit=100', undefined, `Bearer ${key}`)).body.data?.length === seats.length, 10_000);
      await service.kill();
      await Promise.all(inFlight);
      await fetch(`${accounting.url}/control/faults`, { method: 'DELETE' });

      service = await startServiceProcess(env);
      // No client retries anything: the workers find in the log every invoice raised before the kill.
      const raised = (await call('GET', '/v1/invoices?limit=100', undefined, `Bearer ${key}`)).body.data as { id: string; subscription: string }[];
      expect(raised.length).toBeGreaterThan(0);
      await until(
        'every invoice synced',
        async () => {
          const all = await Promise.all(raised.map((i) => call('GET', `/v1/invoices/${i.id}`, undefined, `Bearer ${key}`)));
          return all.every((i) => i.body.accounting.sync_status === 'synced');
        },
        20_000,
      );
      const credited = (await call('GET', '/v1/credit_notes?limit=100', undefined, `Bearer ${key}`)).body.data as { id: string }[];
      expect(credited.length).toBeGreaterThan(0);
      await until(
        'every credit note synced',
        async () => {
          const all = await Promise.all(credited.map((c) => call('GET', `/v1/credit_notes/${c.id}`, undefined, `Bearer ${key}`)));
          return all.every((c) => c.body.accounting.sync_status === 'synced');
        },
        20_000,
      );
      const ledger = (await (await fetch(`${accounting.url}/tenants/${tenant}/changes?since=1970-01-01T00:00:00.000Z`)).json()) as { invoices: { id: string }[]; creditNotes: { id: string }[] };
      // Synced once: one document in the ledger per invoice and per credit note, however often its push was started.
      expect(ledger.invoices).toHaveLength(raised.length);
      expect(ledger.creditNotes).toHaveLength(credited.length);

      const announced = (type: string, id: string) => receiver.received.some((r) => r.body.type === type && (r.body.data as { object: { id: string } }).object.id === id);
      await until(
        'every subscription and invoice announced',
        () => raised.every((i) => announced('subscription.created', i.subscription) && announced('invoice.created', i.id) && announced('invoice.updated', i.id)),
        20_000,
      );
      for (const delivery of receiver.received) expect(verifySignature(delivery.headers['service-signature'] as string, delivery.raw, secret)).toBe(true);
    } finally {
      await service?.stop().catch(() => undefined);
      await receiver.close();
      await accounting.close();
    }
  }, 90_000);
});
