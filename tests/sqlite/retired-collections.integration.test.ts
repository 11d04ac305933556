import { join } from 'node:path';
import { usageRecordedData } from '../../domain/usage/events';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase, type SqliteDatabase } from '../../infra/sqlite/open-database';
import { allProjections } from '../../projections/read-models/all';
import { GENERATIONS } from '../../projections/engine/generations';
import { ProjectionRunner } from '../../projections/engine/runner';
import { USAGE_PERIODS, type UsagePeriodDoc, usagePeriodId, usageProjection } from '../../projections/read-models/usage';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';

const NOW = '2026-02-10T00:00:00.000Z';
const recorded = (...eventIds: string[]) => ({
  ...testEvent(
    'UsageRecorded',
    usageRecordedData(
      'sub_1',
      'org_1',
      NOW,
      eventIds.map((eventId) => ({ eventId, meterId: 'mtr_calls', meterCode: 'api_calls', quantity: '1.5000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' })),
    ),
  ),
  version: 2,
});

/** The layout version 2 of the usage projection gave `collection` (shared documents: two tables and a view), holding `ids`. */
const legacyUsageEventIds = (db: SqliteDatabase, collection: string, ids: readonly string[]): void => {
  const name = `rm_${collection}`;
  db.exec(`CREATE TABLE ${name}__shared (ref INTEGER PRIMARY KEY, doc TEXT NOT NULL)`);
  db.exec(`CREATE TABLE ${name} (id TEXT PRIMARY KEY, ref INTEGER NOT NULL) WITHOUT ROWID`);
  db.exec(`CREATE VIEW ${name}__docs AS SELECT t.id AS id, json_set(s.doc, '$.id', t.id) AS doc FROM ${name} t JOIN ${name}__shared s ON s.ref = t.ref`);
  db.prepare(`INSERT INTO ${name}__shared (ref, doc) VALUES (1, ?)`).run(JSON.stringify({ id: '', subscription: 'sub_1', _organisation: 'org_1' }));
  const insert = db.prepare(`INSERT INTO ${name} (id, ref) VALUES (?, 1)`);
  for (const id of ids) insert.run(`org_1:${id}`);
};

/** Another collection whose table's name begins with `rm_usage_event_ids_`: not the retired one's. */
const neighbour = (db: SqliteDatabase): void => {
  db.exec('CREATE TABLE rm_usage_event_ids_seen (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  db.prepare('INSERT INTO rm_usage_event_ids_seen (id, doc) VALUES (?, ?)').run('kept', JSON.stringify({ id: 'kept' }));
};

const schema = (db: SqliteDatabase, prefix: string): string[] =>
  db
    .prepare<[string, string], { entry: string }>("SELECT type || ' ' || name AS entry FROM sqlite_master WHERE type IN ('table', 'view') AND substr(name, 1, length(?)) = ? ORDER BY name")
    .all(prefix, prefix)
    .map((row) => row.entry);

const openFile = () => openDatabase(join(tempDir('retired'), 'billing.sqlite'));

describe('retired read-model collections on SQLite', () => {
  it('drops a collection’s table with the tables and view of its earlier layout, and nothing whose name only begins with it', async () => {
    const db = openFile();
    legacyUsageEventIds(db, 'usage_event_ids', ['a', 'b']);
    legacyUsageEventIds(db, 'usage_event_ids_g1', ['c']);
    neighbour(db);
    const store = new SqliteReadStore(db);

    await store.drop(['usage_event_ids', 'never_written']);

    expect(schema(db, 'rm_usage_event_ids')).toEqual([
      'table rm_usage_event_ids_g1',
      'view rm_usage_event_ids_g1__docs',
      'table rm_usage_event_ids_g1__shared',
      'table rm_usage_event_ids_seen',
    ]);
    expect(db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM rm_usage_event_ids_g1__docs').get()?.n).toBe(1);
    expect(schema(db, 'rm_never_written')).toEqual([]);
    expect(await store.get('usage_event_ids_seen', 'kept')).toEqual({ id: 'kept' });
    db.close();
  });

  it('forgets the dropped table: written again, it is made anew in the layout of today', async () => {
    const db = openFile();
    const store = new SqliteReadStore(db);
    await store.ensureIndexes([{ collection: 'things', fields: ['org'] }]);
    await store.commit([{ op: 'put', collection: 'things', doc: { id: 't1', org: 'org_a' } }]);
    await store.drop(['things']);
    expect(schema(db, 'rm_things')).toEqual([]);
    await store.commit([{ op: 'put', collection: 'things', doc: { id: 't2', org: 'org_b' } }]);
    expect(db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('rm_things')").all().map((row) => row.name)).toEqual(['id', 'doc']);
    expect(await store.findAll('things', [{ field: 'org', eq: 'org_b' }])).toEqual([{ id: 't2', org: 'org_b' }]);
    db.close();
  });

  it('a runner started on a data directory version 2 of the usage projection made leaves none of its event ids, and usage periods go on', async () => {
    const db = openFile();
    const store = new SqliteEventStore(db);
    const readStore = new SqliteReadStore(db);
    // Version 2 served from generation 1 (generation 0 emptied at its switch), a rebuild into 2 interrupted.
    await store.append('usage-sub_1', [recorded('a', 'b')], 'any');
    await readStore.commit([{ op: 'put', collection: GENERATIONS, doc: { id: 'usage', generation: 1, version: 2 } }]);
    legacyUsageEventIds(db, 'usage_event_ids', []);
    legacyUsageEventIds(db, 'usage_event_ids_g1', ['a', 'b']);
    legacyUsageEventIds(db, 'usage_event_ids_g2', ['a']);
    neighbour(db);

    const runner = new ProjectionRunner(store, readStore, allProjections, silentLogger(), { pollMs: 20 });
    await runner.start();
    expect((await runner.rebuilt())?.status).toBe('switched');

    expect(schema(db, 'rm_usage_event_ids')).toEqual(['table rm_usage_event_ids_seen']);
    const id = usagePeriodId('sub_1', 'mtr_calls', '2026-02-01');
    expect(await runner.readStore.get<UsagePeriodDoc>(USAGE_PERIODS, id)).toMatchObject({ quantity: '3.0000', events: 2 });
    const { position } = await store.append('usage-sub_1', [recorded('c')], 'any');
    expect(await runner.waitFor(position, 2000)).toBe(true);
    expect(await runner.readStore.get<UsagePeriodDoc>(USAGE_PERIODS, id)).toMatchObject({ quantity: '4.5000', events: 3 });
    await runner.stop();
    db.close();
  });

  it('refuses a projection that retires a collection one still writes', () => {
    const db = openFile();
    const retiring = { ...usageProjection, name: 'retiring', collections: [], retired: [USAGE_PERIODS] };
    expect(() => new ProjectionRunner(new SqliteEventStore(db), new SqliteReadStore(db), [usageProjection, retiring], silentLogger())).toThrow(
      'retired collections still written by a projection: usage_periods',
    );
    db.close();
  });
});
