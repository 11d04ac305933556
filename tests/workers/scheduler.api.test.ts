import request from 'supertest';
import { fixedClock } from '../../infra/clock/clock';
import { workerDeps } from '../../service/services';
import { accountingSync } from '../../workers/accounting-sync';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { until } from '../support/until';

type Invoice = { id: string; lines: { revenue_type: string }[]; accounting: { sync_status: string } };

/**
 * The real-time scheduler as the workers run it: the renewal invoice it raises reaches the accounting
 * system through the accounting sync worker's outbox, through an outage too; and a sandbox whose test
 * clock is set is left to its advances.
 */
describe('scheduler worker', () => {
  // 10:00 UTC on 15 March 2026: monthly subscriptions from today renew on 15 Apr, their renewal invoice is due on 8 Apr.
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  let service: TestService;
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('scheduler'), {
      clock,
      workers: { accountingSync: { retryBaseMs: 100, retryMaxMs: 400, raisedDelayMs: 300 }, scheduler: { intervalSeconds: 3600 } },
    });
  });
  afterAll(() => service.close());
  afterEach(() => accountingControl(service, '/faults'));

  const ready = async (orgId: string) => {
    const tenantId = await connectAccounting(service, orgId);
    await defineCatalogue(service, orgId);
    const { auth } = await createKey(service, orgId, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write']);
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: `Customer ${orgId}` });
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `sched-${++n}`).send({ customer_code: 'C1', plan_code: 'flat' });
    expect(created.status).toBe(201);
    await service.services.projections.waitFor(await service.services.store.headPosition());
    return { tenantId, auth, subscriptionId: (created.body as { id: string }).id };
  };
  const renewals = async (auth: Record<string, string>, subscriptionId: string): Promise<Invoice[]> =>
    ((await request(service.app).get(`/v1/invoices?subscription=${subscriptionId}`).set(auth)).body.data as Invoice[]).filter((i) => i.lines.some((l) => l.revenue_type === 'renewal'));

  it('raises the renewal invoice on its day; through an outage the accounting sync worker pushes it', async () => {
    const live = await createOrganisation(service, { can_create_accounting_contacts: true });
    const { tenantId, auth, subscriptionId } = await ready(live.id);
    clock.set(new Date('2026-04-07T10:00:00.000Z'));
    await service.workers!.schedule();
    expect(await renewals(auth, subscriptionId)).toEqual([]);
    // The scheduler never pushes: the worker's runs take the failures, 4 a run (its client retries 3 times), until the push goes through.
    await accountingControl(service, '/faults', { kind: '5xx', pathPrefix: `/tenants/${tenantId}/invoices`, method: 'POST', count: 10 });
    clock.set(new Date('2026-04-08T10:00:00.000Z'));
    await service.workers!.schedule();
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const [pending] = await renewals(auth, subscriptionId);
    expect(pending!.accounting.sync_status).toBe('pending');
    await until('the renewal invoice is synced by the worker', async () => (await renewals(auth, subscriptionId))[0]!.accounting.sync_status === 'synced', 15_000);
    expect(await renewals(auth, subscriptionId)).toHaveLength(1);
    const status = (await request(service.app).get('/admin/v1/workers').set(service.admin)).body as { scheduler: { steps_run: number; last_error: string | null } };
    expect(status.scheduler).toMatchObject({ last_error: null });
    expect(status.scheduler.steps_run).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('leaves a sandbox whose test clock is set to its advances', async () => {
    clock.set(new Date('2026-03-15T10:00:00.000Z'));
    const live = await createOrganisation(service, { can_create_accounting_contacts: true });
    const sandbox = await openSandbox(service, live.id);
    const { auth, subscriptionId } = await ready(sandbox.id);
    // The test clock stands at midday on 16 Mar; real time moves on to 8 Apr.
    expect((await request(service.app).post(`/admin/v1/organisations/${sandbox.id}/clock/advance`).set(service.admin).send({ date: '2026-03-16' })).status).toBe(200);
    clock.set(new Date('2026-04-08T10:00:00.000Z'));
    await service.workers!.schedule();
    expect(await renewals(auth, subscriptionId)).toEqual([]);
    expect((await request(service.app).post(`/admin/v1/organisations/${sandbox.id}/clock/advance`).set(service.admin).send({ date: '2026-04-08' })).status).toBe(200);
    await service.services.projections.waitFor(await service.services.store.headPosition());
    expect(await renewals(auth, subscriptionId)).toHaveLength(1);
  });
});

describe('test clock advance: the steps never call the accounting system, the accounting sync worker does', () => {
  it('answers the invoices it raised pending while no worker pushes, and synced once one does, having waited for it', async () => {
    const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
    // No accounting sync worker in this process: nothing pushes unless the advance itself did.
    const service = await startTestService(tempDir('advance-no-push'), { clock, delivery: false, env: { ACCOUNTING_PUSH_WAIT_MS: '2000' } });
    const delivery = accountingSync(workerDeps(service.services));
    try {
      const live = await createOrganisation(service, { can_create_accounting_contacts: true });
      const sandboxId = (await openSandbox(service, live.id)).id;
      const tenantId = await connectAccounting(service, sandboxId);
      await defineCatalogue(service, sandboxId);
      const { auth } = await createKey(service, sandboxId, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write']);
      await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Clock Customer' });
      // Monthly from 15 Mar 2026: renews 15 Apr (its renewal invoice raised 8 Apr), then 15 May (raised 8 May).
      const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'advance-1').send({ customer_code: 'C1', plan_code: 'flat' });
      expect(created.body.invoice.accounting.sync_status).toBe('pending');
      const renewals = async (): Promise<Invoice[]> =>
        ((await request(service.app).get(`/v1/invoices?subscription=${created.body.id}`).set(auth)).body.data as Invoice[]).filter((i) => i.lines.some((l) => l.revenue_type === 'renewal'));
      const ledger = async () => (await service.services.accounting.tenant(tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices;
      const advance = (date: string) => request(service.app).post(`/admin/v1/organisations/${sandboxId}/clock/advance`).set(service.admin).send({ date });

      expect((await advance('2026-04-08')).status).toBe(200);
      // Read straight after the answer: the advance raised the renewal invoice and left it to the worker.
      const [april] = await renewals();
      expect(april!.accounting).toEqual({ sync_status: 'pending', invoice_id: null, sync_error: null });
      expect(await ledger()).toEqual([]);

      await delivery.start();
      await until('the worker pushes what the advance raised', async () => (await renewals())[0]!.accounting.sync_status === 'synced', 15_000);
      // The first invoice and the April renewal, each once.
      expect(await ledger()).toHaveLength(2);

      // With the worker running, the answer waits for its push of the May renewal: synced when read straight after.
      expect((await advance('2026-05-08')).status).toBe(200);
      const answered = await renewals();
      expect(answered).toHaveLength(2);
      expect(answered.map((invoice) => invoice.accounting.sync_status)).toEqual(['synced', 'synced']);
      expect(await ledger()).toHaveLength(3);
    } finally {
      await delivery.stop();
      await service.close();
    }
  }, 30_000);
});
