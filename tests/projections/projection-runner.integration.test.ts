import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { enableGroupCommit, writeInGroup } from '../../infra/sqlite/group-commit';
import { openDatabase } from '../../infra/sqlite/open-database';
import type { Projection } from '../../projections/engine/projection';
import { CUSTOMERS, customersProjection } from '../../projections/read-models/customers';
import { organisationsProjection } from '../../projections/read-models/organisations';
import { RebuildRunning, ProjectionRunner } from '../../projections/engine/runner';
import { emptiedBySandboxReset } from '../../projections/read-models/sandbox-reset';
import { testEvent, testMetadata } from '../support/events';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

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

  it('resumes a read model a sandbox reset empties knowing the resets before its checkpoint: a late write of the generation before shows nothing', async () => {
    const { db, store, readStore } = open();
    // Every start is a new process: the wrapped read model's memory is its own.
    const start = async () => {
      const runner = new ProjectionRunner(store, readStore, [organisationsProjection, emptiedBySandboxReset(customersProjection)], silentLogger());
      await runner.start();
      return runner;
    };
    const sandbox = testMetadata({ organisationId: 'org_sbx', livemode: false, resetGeneration: 0 });
    const imported = (customerId: string) => ({
      ...testEvent('CustomerImported', { customerId, organisationId: 'org_sbx', code: customerId, name: null, firstName: null, lastName: null, email: null, accountingContactId: null, source: 'admin_import' }),
      metadata: sandbox,
    });
    const first = await start();
    const { position: resetAt } = await store.append('organisation-org_sbx', [testEvent('SandboxReset', { organisationId: 'org_sbx', generation: 1, copy: { settings: false, catalogue: false, customers: false, subscriptions: false } })], 'any');
    expect(await first.waitFor(resetAt, 2000)).toBe(true);
    await first.stop();
    // Decided in generation 0 by a process that read it before the reset, landing after it.
    const { position } = await store.append('customer-cus_late', [imported('cus_late')], 'any');
    const second = await start();
    expect(await second.waitFor(position, 2000)).toBe(true);
    expect(await readStore.findAll(CUSTOMERS)).toEqual([]);
    await second.stop();
    db.close();
  });

  it('releases a waiter once its batch is read, so its next write joins the batch’s commit; a batch whose commit fails is applied again', async () => {
    const file = join(tempDir('runner'), 'billing.sqlite');
    const db = openDatabase(file);
    const group = enableGroupCommit(db);
    const store = new SqliteEventStore(db);
    const readStore = new SqliteReadStore(db);
    const observer = openDatabase(file);
    const committedNames = () =>
      (JSON.parse(observer.prepare<[], { doc: string }>("SELECT doc FROM rm_names WHERE id = 'all'").get()?.doc ?? '{"names":[]}') as { names: string[] }).names;
    // A deferred foreign key is checked only at COMMIT: a real commit failure, no stub.
    db.exec(`CREATE TABLE parents (id TEXT PRIMARY KEY);
             CREATE TABLE children (parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`);
    // Passes only when a waiter asks (no poll): a poll landing between an append's write and its
    // commit would fold the batch into the append's group, before the test's write can join it.
    const runner = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger(), { pollMs: 3_600_000 });
    await runner.start();

    const first = await store.append('organisation-org_1', [changed('a')], 'any');
    expect(await runner.waitFor(first.position, 2000)).toBe(true);
    // Released before the batch's commit: this connection reads it, another does not yet.
    expect(db.inTransaction).toBe(true);
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a'] });
    expect(committedNames()).toEqual([]);
    const commits = group.counts.commits;
    await writeInGroup(db, () => db.prepare("INSERT INTO parents (id) VALUES ('p1')").run());
    expect(group.counts.commits).toBe(commits + 1);
    expect(committedNames()).toEqual(['a']);

    const second = await store.append('organisation-org_1', [changed('b')], 'any');
    expect(await runner.waitFor(second.position, 2000)).toBe(true);
    // What the released request writes fails its group's commit: the batch goes with it...
    await expect(writeInGroup(db, () => db.prepare("INSERT INTO children (parent) VALUES ('missing')").run())).rejects.toThrow(/FOREIGN KEY/);
    expect(committedNames()).toEqual(['a']);
    // ...and is applied again, once.
    expect(await runner.waitFor(second.position, 2000)).toBe(true);
    await until('the batch applied again', () => committedNames().length === 2);
    expect(committedNames()).toEqual(['a', 'b']);
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b'] });
    await runner.stop();
    db.close();
    observer.close();
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
    // Reads moved to generation 1; generation 0 was dropped, its checkpoint with it.
    expect(await readStore.get('names_g1', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd'] });
    const tables = () => db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_names%' ESCAPE '\\'").all().map((row) => row.name).sort();
    expect(tables()).toEqual(['rm_names_g1']);
    expect(await readStore.checkpoint('names:v1')).toBe(0n);
    // The next rebuild builds generation 2 and drops generation 1.
    runner.startRebuild(null, { verify: true });
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', differences: [] });
    expect(tables()).toEqual(['rm_names_g2']);
    expect(await runner.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd'] });
    await runner.stop();
    // Earlier versions emptied the old generations instead: a start drops what they left.
    await readStore.get('names', 'all');
    await readStore.get('names_g1', 'all');
    expect(tables()).toEqual(['rm_names', 'rm_names_g1', 'rm_names_g2']);
    const restarted = new ProjectionRunner(store, readStore, [gated], silentLogger());
    await restarted.init();
    expect(tables()).toEqual(['rm_names_g2']);
    expect(await restarted.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd'] });
    db.close();
  });

  it('indexes a blue/green rebuild’s generation from its start, and an offline replay’s tables after it', async () => {
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
    expect(indexedWhileApplying).toEqual([['rm_names_g1__by__names'], ['rm_names_g1__by__names'], ['rm_names_g1__by__names']]);
    expect(indexesOf('rm_names_g1')).toEqual(['rm_names_g1__by__names']);

    indexedWhileApplying.length = 0;
    expect(await runner.replayInPlace(null)).toBe(3);
    expect(indexedWhileApplying).toEqual([[], [], []]);
    expect(indexesOf('rm_names_g1')).toEqual(['rm_names_g1__by__names']);
    expect(await runner.readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c'] });
    await runner.stop();
    db.close();
  });

  it('lets the loop turn between a rebuild’s batches: a request waits one batch, not the whole replay', async () => {
    const { db, store, readStore } = open();
    let applied = 0;
    const counted: Projection = {
      ...namesProjection(1),
      apply: async (event, context) => {
        applied += 1;
        await namesProjection(1).apply(event, context);
      },
    };
    // One flush for the whole replay: nothing it does waits for another thread.
    const runner = new ProjectionRunner(store, readStore, [counted], silentLogger(), { batchSize: 10, rebuildBatchSize: 10, rebuildFlushDocuments: 1_000_000 });
    await runner.start();
    await runner.waitFor((await store.append('organisation-org_1', Array.from({ length: 200 }, (_, i) => changed(`n${i}`)), 'any')).position);
    applied = 0;
    const appliedWhenTurned: number[] = [];
    const ticking = setInterval(() => appliedWhenTurned.push(applied), 0);
    runner.startRebuild(null, { verify: false });
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', events: 200 });
    clearInterval(ticking);
    expect(appliedWhenTurned.some((n) => n > 0 && n < 200)).toBe(true);
    expect(await runner.readStore.get('names', 'all')).toEqual({ id: 'all', names: Array.from({ length: 200 }, (_, i) => `n${i}`) });
    await runner.stop();
    db.close();
  });

  it('verifies a rebuild page by page: each difference found, whichever page of either generation holds it', async () => {
    const { db, store, readStore } = open();
    // One document per event, ids in the order of the names: 2,500 of them, three pages of the comparison.
    const perName: Projection = {
      ...namesProjection(1),
      collections: ['per_name'],
      apply: (event, context) => {
        const { name } = (event.data as { changes: { name: string } }).changes;
        context.put('per_name', { id: name, length: name.length });
        return Promise.resolve();
      },
    };
    const name = (i: number) => `n${String(i).padStart(4, '0')}`;
    const runner = new ProjectionRunner(store, readStore, [perName], silentLogger());
    await runner.start();
    // Last, an id with a character beyond U+FFFF: the stores sort it after U+FF01, JavaScript's `<` before.
    const names = [...Array.from({ length: 2500 }, (_, i) => name(i)), 'z\u{1F600}'];
    await runner.waitFor((await store.append('organisation-org_1', names.map(changed), 'any')).position);
    // The live generation damaged on three pages: one document changed, one gone, and two that the log never made.
    await readStore.commit([
      { op: 'put', collection: 'per_name', doc: { id: name(10), length: 99 } },
      { op: 'delete', collection: 'per_name', id: name(1500) },
      { op: 'put', collection: 'per_name', doc: { id: `${name(2100)}x`, length: 6 } },
      { op: 'put', collection: 'per_name', doc: { id: 'z\uFF01', length: 2 } },
    ]);
    runner.startRebuild(null, { verify: true });
    const report = await runner.rebuilt();
    expect(report?.differences).toEqual([
      { projection: 'names', collection: 'per_name', id: name(10), difference: 'changed' },
      { projection: 'names', collection: 'per_name', id: name(1500), difference: 'only_new' },
      { projection: 'names', collection: 'per_name', id: `${name(2100)}x`, difference: 'only_live' },
      { projection: 'names', collection: 'per_name', id: 'z\uFF01', difference: 'only_live' },
    ]);
    expect(await runner.readStore.count('per_name')).toBe(2501);
    await runner.stop();
    db.close();
  });

  it('rebuilds in flushes committed beside the replay to exactly the documents following the log gives', async () => {
    // `key@group` counts a put of `key` in `group`; `-key` deletes it; `*group` deletes every document of the group.
    type Mark = { id: string; group: string; count: number };
    const marks: Projection = {
      name: 'marks',
      version: 1,
      collections: ['marks'],
      indexes: [{ collection: 'marks', fields: ['group'] }],
      handles: ['OrganisationSettingsChanged'],
      apply: async (event, context) => {
        const { name } = (event.data as { changes: { name: string } }).changes;
        if (name.startsWith('-')) return context.delete('marks', name.slice(1));
        if (name.startsWith('*')) return context.deleteWhere('marks', 'group', name.slice(1));
        const [id, group] = name.split('@') as [string, string];
        const doc = await context.get<Mark>('marks', id);
        context.put('marks', { id, group, count: (doc?.count ?? 0) + 1 });
      },
    };
    const log = [
      'a@1', 'b@1', 'c@2', 'a@1', // a updated within a batch and across them
      '-b', 'b@2', 'b@2', // deleted, then made again in another group
      '*1', 'a@3', 'c@2', // group 1 erased (a), a made again after it
      'd@4', '-d', '*2', 'e@2', 'c@2', 'a@3', // c erased then made again; e after the erasure stays
    ];
    const { db, store, readStore } = open();
    await store.append('organisation-org_1', log.map(changed), 'any');
    const expected: Mark[] = [
      { id: 'a', group: '3', count: 2 },
      { id: 'c', group: '2', count: 1 },
      { id: 'e', group: '2', count: 1 },
    ];
    // Followed in one batch, then rebuilt in batches of 2 events, each batch flushed, one document
    // a transaction: a batch's reads go through the flush still being committed on the writer's thread.
    const runner = new ProjectionRunner(store, readStore, [marks], silentLogger(), { rebuildBatchSize: 2, rebuildFlushDocuments: 1, rebuildCommitSize: 1 });
    await runner.start();
    expect(await runner.readStore.findAll('marks')).toEqual(expected);
    runner.startRebuild(null, { verify: true });
    expect(await runner.rebuilt()).toMatchObject({ status: 'switched', events: log.length, differences: [] });
    expect(await readStore.findAll('marks_g1')).toEqual(expected);
    expect(await runner.readStore.find('marks', { where: [{ field: 'group', eq: '2' }], orderBy: 'id', limit: 5 })).toEqual({ data: expected.slice(1).reverse(), hasMore: false });
    await runner.stop();
    // The same, the whole log in one flush.
    const whole = new ProjectionRunner(store, readStore, [marks], silentLogger());
    await whole.start();
    whole.startRebuild(null, { verify: true });
    expect(await whole.rebuilt()).toMatchObject({ status: 'switched', differences: [] });
    expect(await readStore.findAll('marks_g2')).toEqual(expected);
    await whole.stop();
    db.close();
  });
});
