import { join } from 'node:path';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { tempDir } from '../support/test-service';

type Thing = { id: string; org: string; created: string; flag: boolean; note?: string };

const thing = (n: number, org = 'org_a'): Thing => ({ id: `thing_${n}`, org, created: `2026-01-0${n}`, flag: n % 2 === 0 });

/** How SQLite answers a query on the store's table: the index it searches, if any. */
const plan = (db: ReturnType<typeof openDatabase>, sql: string): string =>
  db.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => row.detail).join('; ');

describe('SQLite read store: indexed fields in columns of their own', () => {
  it('migrates a table written before columns: fills them from the documents, drops the json_extract index, and answers the same', async () => {
    const db = openDatabase(join(tempDir('read-columns'), 'billing.sqlite'));
    // The layout a data directory from before has: documents only, an index over json_extract expressions.
    db.exec('CREATE TABLE rm_things (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
    db.exec("CREATE INDEX rm_things__org__created ON rm_things (json_extract(doc, '$.org'), json_extract(doc, '$.created'))");
    const insert = db.prepare('INSERT INTO rm_things (id, doc) VALUES (?, ?)');
    for (const doc of [thing(1), thing(2), thing(3, 'org_b')]) insert.run(doc.id, JSON.stringify(doc));

    const store = new SqliteReadStore(db);
    await store.ensureIndexes([{ collection: 'things', fields: ['org', 'created'] }]);

    const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('rm_things')").all().map((row) => row.name);
    expect(columns).toEqual(['id', 'doc', 'f_org', 'f_created']);
    expect(db.prepare<[], { org: string; created: string }>('SELECT f_org AS org, f_created AS created FROM rm_things ORDER BY id').all()).toEqual([
      { org: 'org_a', created: '2026-01-01' },
      { org: 'org_a', created: '2026-01-02' },
      { org: 'org_b', created: '2026-01-03' },
    ]);
    const indexes = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rm_things' AND sql IS NOT NULL").all();
    expect(indexes.map((row) => row.name)).toEqual(['rm_things__by__org__created']);

    // Written after the migration: the columns follow the document, on insert and on replace.
    await store.commit([{ op: 'put', collection: 'things', doc: thing(4) }, { op: 'put_json', collection: 'things', id: 'thing_1', json: JSON.stringify({ ...thing(1), org: 'org_b' }), fields: { org: 'org_b' } }]);
    const page = await store.find<Thing>('things', { where: [{ field: 'org', eq: 'org_a' }], orderBy: 'created', limit: 10 });
    expect(page.data.map((doc) => doc.id)).toEqual(['thing_4', 'thing_2']);
    expect((await store.findAll<Thing>('things', [{ field: 'org', eq: 'org_b' }])).map((doc) => doc.id)).toEqual(['thing_1', 'thing_3']);
    // A field without a column is still read from the document.
    expect(await store.count('things', [{ field: 'flag', eq: true }])).toBe(2);
    await store.commit([{ op: 'deleteWhere', collection: 'things', field: 'org', eq: 'org_b' }]);
    expect((await store.findAll<Thing>('things')).map((doc) => doc.id)).toEqual(['thing_2', 'thing_4']);

    // The page query searches the column index.
    expect(plan(db, "SELECT doc FROM rm_things WHERE f_org = 'org_a' ORDER BY f_created DESC, id DESC")).toContain('rm_things__by__org__created');
    db.close();
  });

  it('keeps the columns when its indexes are dropped, so a rebuild writes them with each document and indexes them at the end', async () => {
    const db = openDatabase(join(tempDir('read-columns'), 'billing.sqlite'));
    const store = new SqliteReadStore(db);
    await store.ensureIndexes([{ collection: 'things', fields: ['org', 'created'] }]);
    await store.dropIndexes(['things']);
    await store.commit([1, 2, 3].map((n) => ({ op: 'put' as const, collection: 'things', doc: thing(n) })));
    expect(db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM rm_things WHERE f_org = 'org_a'").get()?.n).toBe(3);
    await store.ensureIndexes([{ collection: 'things', fields: ['org', 'created'] }]);
    const page = await store.find<Thing>('things', { where: [{ field: 'org', eq: 'org_a' }], orderBy: 'created', limit: 2 });
    expect(page).toEqual({ data: [thing(3), thing(2)], hasMore: true });
    db.close();
  });

  it('refuses an indexed field whose column name would read back as another field', async () => {
    const store = new SqliteReadStore(openDatabase(join(tempDir('read-columns'), 'billing.sqlite')));
    await expect(store.ensureIndexes([{ collection: 'things', fields: ['a__b'] }])).rejects.toThrow('cannot hold "__"');
  });
});
