import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import type { Projection } from '../../projections/projection';
import { ProjectionRunner, type RunnerOptions } from '../../projections/runner';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

const named = (names: string) => testEvent('OrganisationSettingsChanged', { organisationId: 'org_1', changes: { name: names } });

/** Each comma-separated name a document of its own, like the usage event ids. */
const idsProjection: Projection = {
  name: 'ids',
  version: 1,
  collections: ['ids'],
  indexes: [{ collection: 'ids', fields: [], sharedDocuments: true }],
  handles: ['OrganisationSettingsChanged'],
  apply: (event, context) => {
    context.putEach('ids', (event.data as { changes: { name: string } }).changes.name.split(','), { position: String(event.position) });
    return Promise.resolve();
  },
};

/** A projection that does not lag: the count of events, read back at once. */
const countProjection: Projection = {
  name: 'count',
  version: 1,
  collections: ['count'],
  indexes: [],
  handles: ['OrganisationSettingsChanged'],
  apply: async (_event, context) => {
    const doc = (await context.get<{ id: string; events: number }>('count', 'all')) ?? { id: 'all', events: 0 };
    context.put('count', { ...doc, events: doc.events + 1 });
  },
};

describe('a lagging projection', () => {
  const open = (file = join(tempDir('lagging'), 'billing.sqlite')) => {
    const db = openDatabase(file);
    return { file, db, store: new SqliteEventStore(db), raw: new SqliteReadStore(db) };
  };
  const runnerOn = ({ store, raw }: ReturnType<typeof open>, options: RunnerOptions) =>
    new ProjectionRunner(store, raw, [idsProjection, countProjection], silentLogger(), { lagging: ['ids'], lagMs: 60_000, ...options });
  const committedIds = async (raw: SqliteReadStore) => (await raw.findAll('ids')).map((doc) => doc.id);

  it('is read by id from memory once applied, and committed with its checkpoint once it holds enough or at stop', async () => {
    const stores = open();
    const { store, raw } = stores;
    const runner = runnerOn(stores, { lagDocuments: 4 });
    await runner.start();
    let { position } = await store.append('organisation-org_1', [named('a,b')], 'any');
    expect(await runner.waitFor(position, 2000)).toBe(true);
    expect(await runner.readStore.get('ids', 'a')).toEqual({ id: 'a', position: String(position) });
    expect((await runner.readStore.getMany('ids', ['a', 'b', 'z'])).map((doc) => doc.id).sort()).toEqual(['a', 'b']);
    expect(await runner.readStore.get('count', 'all')).toEqual({ id: 'all', events: 1 });
    // Held, not committed: neither the documents nor the checkpoint are stored yet.
    expect(await committedIds(raw)).toEqual([]);
    expect(await raw.checkpoint('ids:v1')).toBe(0n);
    expect(await raw.checkpoint('count:v1')).toBe(position);
    // A query would miss the held documents: refused rather than answered short.
    await expect(runner.readStore.findAll('ids')).rejects.toThrow('ids is read by id only');

    ({ position } = await store.append('organisation-org_1', [named('c,d')], 'any'));
    expect(await runner.waitFor(position, 2000)).toBe(true);
    // Committed just after the waiters are released.
    await until('the ids committed', async () => (await raw.checkpoint('ids:v1')) === position);
    expect(await committedIds(raw)).toEqual(['a', 'b', 'c', 'd']);

    ({ position } = await store.append('organisation-org_1', [named('e')], 'any'));
    expect(await runner.waitFor(position, 2000)).toBe(true);
    expect(await committedIds(raw)).toEqual(['a', 'b', 'c', 'd']);
    await runner.stop();
    expect(await committedIds(raw)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await raw.checkpoint('ids:v1')).toBe(position);
    stores.db.close();
  });

  it('commits what it has held for lagMs at the next pass, the poll included', async () => {
    const stores = open();
    const runner = runnerOn(stores, { lagMs: 30, pollMs: 20 });
    await runner.start();
    const { position } = await stores.store.append('organisation-org_1', [named('a')], 'any');
    expect(await runner.waitFor(position, 2000)).toBe(true);
    await until('the ids committed', async () => (await stores.raw.checkpoint('ids:v1')) === position);
    expect(await committedIds(stores.raw)).toEqual(['a']);
    await runner.stop();
    stores.db.close();
  });

  it('loses nothing when the process ends with writes held: the next start applies the log again from its checkpoint', async () => {
    const first = open();
    const crashed = runnerOn(first, { lagDocuments: 3 });
    await crashed.start();
    const committed = await first.store.append('organisation-org_1', [named('a,b,c')], 'any');
    await until('a, b and c committed', async () => (await first.raw.checkpoint('ids:v1')) === committed.position);
    const { position } = await first.store.append('organisation-org_1', [named('d,e')], 'any');
    expect(await crashed.waitFor(position, 2000)).toBe(true);
    // As if killed: it stops applying, so its stop commits nothing it holds.
    crashed.applyOnlyWhile(() => false);
    await crashed.stop();
    first.db.close();

    const second = open(first.file);
    const runner = runnerOn(second, {});
    await runner.start();
    expect(await committedIds(second.raw)).toEqual(['a', 'b', 'c']);
    expect((await runner.readStore.getMany('ids', ['d', 'e'])).map((doc) => doc.id).sort()).toEqual(['d', 'e']);
    expect(await runner.readStore.get('count', 'all')).toEqual({ id: 'all', events: 2 });
    await runner.stop();
    expect(await committedIds(second.raw)).toEqual(['a', 'b', 'c', 'd', 'e']);
    second.db.close();
  });

  it('is rebuilt beside its live generation and switched with what it held committed; an offline replay commits it all', async () => {
    const stores = open();
    const runner = runnerOn(stores, {});
    await runner.start();
    await stores.store.append('organisation-org_1', [named('a,b')], 'any');
    const { position } = await stores.store.append('organisation-org_1', [named('b,c')], 'any');
    expect(await runner.waitFor(position, 2000)).toBe(true);
    runner.startRebuild(['ids'], { verify: true });
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', events: 2, differences: [] });
    expect((await stores.raw.findAll('ids_g1')).map((doc) => [doc.id, doc.position])).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c', '2'],
    ]);
    expect(await runner.readStore.get('ids', 'c')).toEqual({ id: 'c', position: '2' });
    await runner.stop();

    const offline = runnerOn(stores, {});
    await offline.init();
    expect(await offline.replayInPlace(['ids'])).toBe(2);
    expect((await stores.raw.findAll('ids_g1')).map((doc) => doc.id)).toEqual(['a', 'b', 'c']);
    expect(await stores.raw.checkpoint('ids:v1:g1')).toBe(position);
    await offline.stop();
    stores.db.close();
  });
});
