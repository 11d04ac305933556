import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import type { Projection } from '../../projections/projection';
import { RebuildRunning, ProjectionRunner } from '../../projections/runner';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';

// The catalogue must know the event type; OrganisationSettingsChanged is a real one.
const changed = (name: string) => testEvent('OrganisationSettingsChanged', { organisationId: 'org_1', changes: { name } });

const namesProjection = (version: number, suffix = ''): Projection => ({
  name: 'names',
  version,
  collections: ['names'],
  indexes: [],
  handles: ['OrganisationSettingsChanged'],
  apply: async (event, context) => {
    const data = event.data as { changes: { name: string } };
    const doc = (await context.get<{ id: string; names: string[] }>('names', 'all')) ?? { id: 'all', names: [] };
    context.put('names', { ...doc, names: [...doc.names, `${data.changes.name}${suffix}`] });
  },
});

describe('projection runner', () => {
  const open = () => {
    const db = openDatabase(join(tempDir('runner'), 'billing.sqlite'));
    return { db, store: new SqliteEventStore(db), readStore: new SqliteReadStore(db) };
  };

  it('follows the log in batches, reads its own batch’s writes, and lets a writer wait for its position', async () => {
    const { db, store, readStore } = open();
    const runner = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger(), { batchSize: 2 });
    await runner.start();
    let position = 0n;
    for (const name of ['a', 'b', 'c', 'd', 'e']) position = (await store.append('organisation-org_1', [changed(name)], 'any')).position;
    expect(await runner.waitFor(position, 2000)).toBe(true);
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd', 'e'] });
    expect(await runner.waitFor(position + 100n, 50)).toBe(false);
    await runner.stop();
    db.close();
  });

  it('applies the log only while it holds the projections lease; without it, follows the holder’s checkpoints and takes over after', async () => {
    const { db, store, readStore } = open();
    let holder: 'first' | 'second' = 'first';
    const first = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger(), { pollMs: 20 });
    const second = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger(), { pollMs: 20 });
    first.applyOnlyWhile(() => holder === 'first');
    second.applyOnlyWhile(() => holder === 'second');
    await first.start();
    await second.start();
    const { position } = await store.append('organisation-org_1', [changed('a'), changed('b')], 'any');
    // The follower's read-your-writes wait resolves on the holder's checkpoint; each event is applied once.
    expect(await second.waitFor(position, 2000)).toBe(true);
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b'] });
    await first.stop();
    holder = 'second';
    const next = await store.append('organisation-org_1', [changed('c')], 'any');
    expect(await second.waitFor(next.position, 2000)).toBe(true);
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c'] });
    await second.stop();
    db.close();
  });

  it('rebuilds a read model whose version changed beside the old generation, which serves until the switch', async () => {
    const { db, store, readStore } = open();
    const first = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger());
    await first.start();
    const { position } = await store.append('organisation-org_1', [changed('x'), changed('y')], 'any');
    await first.waitFor(position);
    await first.stop();
    const second = new ProjectionRunner(store, readStore, [namesProjection(2, '!')], silentLogger());
    await second.start();
    // The old generation answers until the new one has caught up and taken its place.
    expect((await second.status())[0]).toMatchObject({ name: 'names', version: 1, status: 'rebuilding' });
    expect(await second.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['x', 'y'] });
    expect((await second.rebuilt())?.status).toBe('switched');
    expect(await second.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['x!', 'y!'] });
    expect((await second.status())[0]).toMatchObject({ name: 'names', version: 2, checkpoint: position, lag: 0n, status: 'live' });
    await second.stop();
    db.close();
  });

  it('rebuilds on demand beside the live generation, which keeps following the log, and switches once caught up', async () => {
    const { db, store, readStore } = open();
    let gate: Promise<void> | null = null;
    let openGate = () => {};
    const gated: Projection = {
      ...namesProjection(1),
      apply: async (event, context) => {
        await gate;
        await namesProjection(1).apply(event, context);
      },
    };
    const runner = new ProjectionRunner(store, readStore, [gated], silentLogger(), { batchSize: 2 });
    await runner.start();
    let { position } = await store.append('organisation-org_1', [changed('a'), changed('b'), changed('c')], 'any');
    await runner.waitFor(position);
    // Only the new generation applies events while the gate is shut: the live one is caught up.
    gate = new Promise((resolve) => (openGate = resolve));
    const rebuild = runner.startRebuild(null, { verify: true });
    expect(() => runner.startRebuild(null, { verify: false })).toThrow(RebuildRunning);
    expect(await runner.status()).toEqual([{ name: 'names', version: 1, checkpoint: position, head: position, lag: 0n, status: 'rebuilding' }]);
    expect(rebuild).toMatchObject({ status: 'running', projections: ['names'] });
    gate = null;
    openGate();
    ({ position } = await store.append('organisation-org_1', [changed('d')], 'any'));
    expect(await runner.waitFor(position, 2000)).toBe(true);
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', events: 4, differences: [] });
    expect(await runner.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd'] });
    // Reads moved to generation 1; generation 0 was emptied.
    expect(await readStore.get('names_g1', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd'] });
    expect(await readStore.get('names', 'all')).toBeNull();
    await runner.stop();
    db.close();
  });

  it('replays a rebuild without the read model’s indexes and builds them before reads move to it, blue/green and offline', async () => {
    const { db, store, readStore } = open();
    const indexesOf = (table: string) =>
      db.prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table).map((row) => row.name);
    const indexedWhileApplying: string[][] = [];
    const indexed: Projection = {
      ...namesProjection(1),
      indexes: [{ collection: 'names', fields: ['names'] }],
      apply: async (event, context) => {
        // Generation 1: built by the blue/green rebuild, then live and replayed offline.
        indexedWhileApplying.push(indexesOf('rm_names_g1'));
        await namesProjection(1).apply(event, context);
      },
    };
    const runner = new ProjectionRunner(store, readStore, [indexed], silentLogger(), { batchSize: 2, rebuildBatchSize: 2 });
    await runner.start();
    const { position } = await store.append('organisation-org_1', [changed('a'), changed('b'), changed('c')], 'any');
    await runner.waitFor(position);
    expect(indexesOf('rm_names')).toEqual(['rm_names__by__names']);

    indexedWhileApplying.length = 0;
    runner.startRebuild(null, { verify: true });
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', events: 3, differences: [] });
    expect(indexedWhileApplying).toEqual([[], [], []]);
    expect(indexesOf('rm_names_g1')).toEqual(['rm_names_g1__by__names']);

    indexedWhileApplying.length = 0;
    expect(await runner.replayInPlace(null)).toBe(3);
    expect(indexedWhileApplying).toEqual([[], [], []]);
    expect(indexesOf('rm_names_g1')).toEqual(['rm_names_g1__by__names']);
    expect(await runner.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c'] });
    await runner.stop();
    db.close();
  });

  it('writes documents put together (putEach) live and in a rebuild alike, beside a replaced one', async () => {
    const { db, store, readStore } = open();
    // Each name is a document of its own, all put in one call per event; a name put again is replaced.
    const each: Projection = {
      ...namesProjection(1),
      collections: ['name_ids'],
      apply: (event, context) => {
        const { name } = (event.data as { changes: { name: string } }).changes;
        context.putEach('name_ids', name.split(','), { by: 'putEach', position: String(event.position) });
        if (name.includes('b')) context.put('name_ids', { id: 'b', by: 'put', position: String(event.position) });
        return Promise.resolve();
      },
    };
    const runner = new ProjectionRunner(store, readStore, [each], silentLogger(), { batchSize: 2, rebuildBatchSize: 2 });
    await runner.start();
    const { position } = await store.append('organisation-org_1', [changed('a,b'), changed('c'), changed('a,d')], 'any');
    await runner.waitFor(position);
    const expected = [
      { id: 'a', by: 'putEach', position: '3' },
      { id: 'b', by: 'put', position: '1' },
      { id: 'c', by: 'putEach', position: '2' },
      { id: 'd', by: 'putEach', position: '3' },
    ];
    expect(await runner.readStore.findAll('name_ids')).toEqual(expected);
    runner.startRebuild(null, { verify: true });
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', events: 3, differences: [] });
    expect(await runner.readStore.findAll('name_ids')).toEqual(expected);
    await runner.stop();
    db.close();
  });
});
