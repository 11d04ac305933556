import request from 'supertest';
import { workerDeps, workerOptions } from '../../service/services';
import { startWorkers } from '../../workers/workers';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir } from '../support/test-service';
import { until } from '../support/until';

describe('worker leases: each outbox and the poller run in one holder at a time', () => {
  it('runs them in the first holder only; another takes over when it stops, and pushes go on', async () => {
    // Short enough for a quick takeover, long enough that a busy machine still renews it in time.
    const leaseMs = 1_000;
    const service = await startTestService(tempDir('leases'), { workers: { leaseMs, poller: { intervalSeconds: 60 } } });
    // A second set of workers as another process would run them, on the same leases.
    const second = await startWorkers({ ...workerDeps(service.services), instanceId: 'second-instance' }, { ...workerOptions(service.services), leaseMs });
    try {
      const heldBy = async (workers: typeof second) => (await workers.status()).leases.filter((lease) => lease.held).map((lease) => lease.name);
      const all = ['worker:accounting-sync', 'worker:webhooks', 'worker:status-poller', 'worker:scheduler'];
      expect(await heldBy(service.workers!)).toEqual(all);
      expect(await heldBy(second)).toEqual([]);
      const admin = (await request(service.app).get('/admin/v1/workers').set(service.admin)).body;
      expect(admin).toMatchObject({ instance_id: service.services.instanceId, leases: all.map((name) => ({ name, held: true })) });

      await service.workers!.stop();
      await until('the second holder takes over', async () => (await heldBy(second)).length === all.length, 10_000);

      const orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
      await connectAccounting(service, orgId);
      await defineCatalogue(service, orgId);
      const { auth } = await createKey(service, orgId, ['subscriptions:write', 'invoices:read', 'customers:write']);
      await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Customer One' });
      const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'after-takeover').send({ customer_code: 'C1', plan_code: 'flat' });
      expect(created.body.invoice.accounting.sync_status).toBe('synced');
    } finally {
      await second.stop();
      await service.close();
    }
  });
});
