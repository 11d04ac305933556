import request from 'supertest';
import { quickStart } from '../../service/quick-start';
import { allProjections } from '../../projections/all';
import { ORGANISATIONS } from '../../projections/organisations';
import { ensureBuilt, runNode } from '../support/service-process';
import { startTestService, tempDir } from '../support/test-service';

describe('npm run projections:rebuild', () => {
  beforeAll(ensureBuilt, 120_000);

  it('refuses an unknown projection name', () => {
    const run = runNode('service/cli/rebuild-projections.js', ['nonsense'], { DATA_DIR: tempDir('rebuild'), LOG_LEVEL: 'silent' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown projection(s): nonsense');
  });

  it('rebuilds the read models to the same documents as before, with progress and a final rate', async () => {
    const service = await startTestService();
    // First a whole demo organisation (the quick start needs an empty log): sandbox, accounting,
    // catalogue, customer, key; then a subscription with its invoice.
    const demo = await quickStart(service.services);
    await service.services.projections.waitFor(demo!.position);
    const subscription = await request(service.app)
      .post('/v1/subscriptions')
      .set('Authorization', `Bearer ${demo!.apiKey}`)
      .set('Idempotency-Key', 'rebuild-1')
      .send({ customer_code: 'ACME', plan_code: 'team', units: 4, charges: [] });
    expect(subscription.status).toBe(201);
    for (let i = 0; i < 30; i++) {
      const { body } = await request(service.app)
        .post('/admin/v1/organisations')
        .set(service.admin)
        .send({ name: `Org ${i}`, timezone: 'Europe/Paris', default_currency: 'EUR' });
      if (i % 3 === 0) {
        await request(service.app).patch(`/admin/v1/organisations/${body.id}`).set(service.admin).send({ name: `Renamed ${i}` });
      }
    }
    const snapshot = async (readStore: typeof service.services.readStore) =>
      Object.fromEntries(
        await Promise.all(allProjections.flatMap((p) => p.collections).map(async (c) => [c, await readStore.findAll(c)] as const)),
      );
    const everything = await snapshot(service.services.readStore);
    expect(everything.subscriptions).toHaveLength(1);
    expect(everything.invoices).toHaveLength(1);
    const before = await service.services.readStore.findAll(ORGANISATIONS);
    expect(before).toHaveLength(32);
    const events = Number(await service.services.store.headPosition());
    // Damage the read model: the rebuild must restore it from the log alone.
    await service.services.readStore.commit([
      { op: 'delete', collection: ORGANISATIONS, id: before[0]!.id },
      { op: 'put', collection: ORGANISATIONS, doc: { ...before[1]!, name: 'corrupted' } },
      { op: 'put', collection: ORGANISATIONS, doc: { id: 'org_stray' } },
    ]);
    await service.close();

    const run = runNode('service/cli/rebuild-projections.js', [], { DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/rebuilding all projections \[#+\] 100% (\d+)\/\1 events/);
    expect(run.stderr).toMatch(new RegExp(`rebuilding all projections: ${events} events in [\\d.]+ s \\(\\d+ events/s\\)`));

    const reopened = await startTestService(service.dataDir);
    try {
      expect(await reopened.services.readStore.findAll(ORGANISATIONS)).toEqual(before);
      expect(await snapshot(reopened.services.readStore)).toEqual(everything);
    } finally {
      await reopened.close();
    }
  });
});
