import request from 'supertest';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { allProjections } from '../../projections/read-models/all';
import type { PartitionBuild, RebuildPartitions } from '../../projections/engine/rebuild-partitions';
import { ProjectionRunner } from '../../projections/engine/runner';
import { quickStart } from '../../service/quick-start';
import { sqliteRebuildPartitions } from '../../service/rebuild-partitions';
import { databaseFile } from '../../service/services';
import { startTestService } from '../support/test-service';

type ReadStore = SqliteReadStore | ProjectionRunner['readStore'];

/** Every document of every read model, by collection. */
const documents = async (readStore: ReadStore) =>
  Object.fromEntries(await Promise.all(allProjections.flatMap((p) => p.collections).map(async (c) => [c, await readStore.findAll(c)] as const)));

describe('a rebuild split by read model across threads (SQLite)', () => {
  let dataDir: string;
  let before: Awaited<ReturnType<typeof documents>>;

  beforeAll(async () => {
    // A demo organisation (every catalogue read model), customers, subscriptions and their invoices, organisations renamed.
    const service = await startTestService();
    const demo = (await quickStart(service.services))!;
    await service.services.projections.waitFor(demo.position);
    for (let i = 0; i < 6; i++) {
      const created = await request(service.app)
        .post('/v1/subscriptions')
        .set('Authorization', `Bearer ${demo.apiKey}`)
        .set('Idempotency-Key', `partitions-${i}`)
        .send({ customer_code: `CUST${i}`, create_customer: { name: `Customer ${i}` }, plan_code: 'team', units: i + 1 });
      expect(created.status).toBe(201);
    }
    for (let i = 0; i < 5; i++) {
      const { body } = await request(service.app).post('/admin/v1/organisations').set(service.admin).send({ name: `Org ${i}`, timezone: 'Europe/Paris', default_currency: 'EUR' });
      await request(service.app).patch(`/admin/v1/organisations/${body.id}`).set(service.admin).send({ name: `Renamed ${i}` });
    }
    await service.services.projections.waitFor(await service.services.store.headPosition());
    before = await documents(service.services.readStore);
    dataDir = service.dataDir;
    await service.close();
  }, 60_000);

  /** The runner as the service wires it, on the data directory, with the partitions' replay seen by `watch`. */
  const open = (watch: (groups: readonly (readonly PartitionBuild[])[]) => readonly (readonly PartitionBuild[])[] = (groups) => groups) => {
    const file = databaseFile(dataDir);
    const db = openDatabase(file);
    const store = new SqliteEventStore(db);
    const partitions = sqliteRebuildPartitions(store, file, { threads: 2, fromEvents: 0 });
    const watched: RebuildPartitions = { ...partitions, replay: (job) => partitions.replay({ ...job, groups: watch(job.groups) }) };
    const runner = new ProjectionRunner(store, new SqliteReadStore(db), allProjections, silentLogger(), { partitions: watched });
    return { db, store, runner };
  };

  it('replays each read model in one of the threads and switches to exactly the documents the live generation holds', async () => {
    let seen: readonly (readonly PartitionBuild[])[] = [];
    const { db, store, runner } = open((groups) => (seen = groups));
    await runner.start();
    runner.startRebuild(null, { verify: true });
    const rebuilt = await runner.rebuilt();
    expect(rebuilt).toMatchObject({ status: 'switched', differences: [], events: Number(await store.headPosition()) });
    // Two groups, every read model in exactly one of them.
    expect(seen).toHaveLength(2);
    const names = seen.flat().map((build) => build.projection);
    expect(names.sort()).toEqual(allProjections.map((p) => p.name).sort());
    expect(await documents(runner.readStore)).toEqual(before);
    await runner.stop();
    db.close();
  }, 60_000);

  it('fails the rebuild when a thread fails, and the live generation keeps serving', async () => {
    const { db, runner } = open((groups) => groups.map((group, i) => (i === 0 ? [...group, { projection: 'no_such_model', names: [], checkpoint: 'x' }] : group)));
    await runner.start();
    runner.startRebuild(null, { verify: false });
    const rebuilt = await runner.rebuilt();
    expect(rebuilt).toMatchObject({ status: 'failed', error: expect.stringContaining('no read model named no_such_model') });
    expect((await runner.status()).every((projection) => projection.status === 'live')).toBe(true);
    expect(await documents(runner.readStore)).toEqual(before);
    await runner.stop();
    db.close();
  }, 60_000);

  it('ends the threads when the service stops mid-way: the rebuild fails and the live generation stays', async () => {
    const { db, runner } = open();
    await runner.start();
    runner.startRebuild(null, { verify: false });
    await runner.stop();
    expect(runner.rebuildStatus()).toMatchObject({ status: 'failed', error: 'the service stopped before the rebuild switched' });
    expect((await runner.status()).every((projection) => projection.status === 'live')).toBe(true);
    db.close();
  }, 60_000);
});
