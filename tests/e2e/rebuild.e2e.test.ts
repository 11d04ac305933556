import request from 'supertest';
import { quickStart } from '../../service/quick-start';
import { allProjections } from '../../projections/read-models/all';
import { ORGANISATIONS } from '../../projections/read-models/organisations';
import { cpSync } from 'node:fs';
import { ensureBuilt, runNode, runNodeAsync, startServiceProcess } from '../support/service-process';
import { startTestService, tempDir } from '../support/test-service';

type ReadStore = Awaited<ReturnType<typeof startTestService>>['services']['readStore'];

/** Every document of every read model, by collection. */
const snapshot = async (readStore: ReadStore) =>
  Object.fromEntries(
    await Promise.all(allProjections.flatMap((p) => p.collections).map(async (c) => [c, await readStore.findAll(c)] as const)),
  );

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

  it('rebuilds beside the running service: no request fails, and the documents equal a fresh offline rebuild', async () => {
    const dataDir = tempDir('online-rebuild');
    const token = 'online-rebuild-admin-token-0123';
    const service = await startServiceProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: token });
    const admin = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const call = async (method: string, path: string, body?: object) => {
      const response = await fetch(`${service.url}${path}`, { method, headers: admin, body: body && JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { id: string; name: string } };
    };
    try {
      for (let i = 0; i < 150; i++) await call('POST', '/admin/v1/organisations', { name: `Seed ${i}`, timezone: 'Europe/Paris', default_currency: 'EUR' });
      // Writes and reads, each write read back at once, for as long as the rebuild runs.
      let running = true;
      const failures: string[] = [];
      let requests = 0;
      const load = async () => {
        for (let i = 0; running; i++) {
          const created = await call('POST', '/admin/v1/organisations', { name: `Load ${i}`, timezone: 'Europe/London', default_currency: 'GBP' });
          const renamed = await call('PATCH', `/admin/v1/organisations/${created.body.id}`, { name: `Renamed ${i}` });
          const read = await call('GET', `/admin/v1/organisations/${created.body.id}`);
          requests += 3;
          if (created.status !== 201 || renamed.status !== 200 || renamed.body.name !== `Renamed ${i}` || read.status !== 200 || read.body.name !== `Renamed ${i}`) {
            failures.push(JSON.stringify([created, renamed, read]));
          }
        }
      };
      const loads = Promise.all([load(), load()]);
      const run = await runNodeAsync('service/cli/rebuild-projections.js', ['--verify'], { DATA_DIR: dataDir, ADMIN_URL: service.url, ADMIN_TOKEN: token });
      running = false;
      await loads;
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/rebuilding all projections \[[#-]+\] \d+% \d+\/\d+ events, \d+\/s, ETA \d+ s/);
      expect(run.stderr).toMatch(/rebuilding all projections: \d+ events in [\d.]+ s \(\d+ events\/s\)/);
      expect(run.stdout).toContain('verify: 0 difference(s) between the new generation and the live one');
      expect(failures).toEqual([]);
      expect(requests).toBeGreaterThan(0);
      const listed = await fetch(`${service.url}/admin/v1/projections`, { headers: admin });
      expect(((await listed.json()) as { data: { status: string }[] }).data.every((p) => p.status === 'live')).toBe(true);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    // The same log rebuilt offline, from scratch, in a copy of the data directory.
    const offlineDir = tempDir('offline-rebuild');
    cpSync(dataDir, offlineDir, { recursive: true });
    const offline = runNode('service/cli/rebuild-projections.js', ['--offline'], { DATA_DIR: offlineDir, LOG_LEVEL: 'silent' });
    expect(offline.status).toBe(0);
    const online = await startTestService(dataDir);
    const fresh = await startTestService(offlineDir);
    try {
      expect(await snapshot(online.services.readStore)).toEqual(await snapshot(fresh.services.readStore));
    } finally {
      await online.close();
      await fresh.close();
    }
  }, 120_000);
});
