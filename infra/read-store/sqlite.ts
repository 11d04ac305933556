import type { SqliteDatabase } from '../sqlite/open-database';
import { assertCollection, assertField } from './names';
import type { Checkpoint, Condition, Doc, FindQuery, IndexSpec, Page, ReadStore, Write } from './port';
import { UnknownCursor } from './unknown-cursor';
import { writeInGroup } from '../sqlite/group-commit';
import { settle } from '../sqlite/settle';

type SqlValue = string | number | null;
type Statement<P extends unknown[], R> = {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  run(...params: P): unknown;
};

const table = (collection: string): string => `rm_${assertCollection(collection)}`;
const path = (field: string): string => `json_extract(doc, '$.${assertField(field)}')`;
// json_extract returns booleans as 1/0.
const sqlValue = (value: string | number | boolean | null): SqlValue =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value;

const whereClause = (conditions: readonly Condition[] = []): { sql: string; params: SqlValue[] } => {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const condition of conditions) {
    if ('eq' in condition) {
      if (condition.eq === null) parts.push(`${path(condition.field)} IS NULL`);
      else {
        parts.push(`${path(condition.field)} = ?`);
        params.push(sqlValue(condition.eq));
      }
    } else if ('in' in condition) {
      if (condition.in.length === 0) parts.push('0');
      else {
        parts.push(`${path(condition.field)} IN (${condition.in.map(() => '?').join(', ')})`);
        params.push(...condition.in.map(sqlValue));
      }
    } else if ('lte' in condition) {
      parts.push(`${path(condition.field)} <= ?`);
      params.push(condition.lte);
    } else {
      parts.push(`lower(${path(condition.field)}) = lower(?)`);
      params.push(condition.ieq);
    }
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
};

/** Read models as JSON documents in the embedded SQLite file, one table per collection. */
export class SqliteReadStore implements ReadStore {
  private readonly tables = new Set<string>();
  private readonly statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();

  constructor(private readonly db: SqliteDatabase) {
    db.exec('CREATE TABLE IF NOT EXISTS projection_checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL)');
  }

  private prepare<P extends unknown[] = SqlValue[], R = unknown>(sql: string): Statement<P, R> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as unknown as Statement<P, R>;
  }

  private ensureTable(collection: string): string {
    const name = table(collection);
    if (!this.tables.has(name)) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${name} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      this.tables.add(name);
    }
    return name;
  }

  ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    return settle(() => {
      for (const index of indexes) {
        const name = this.ensureTable(index.collection);
        const indexName = `${name}__${index.fields.map((f) => f.replace(/\./g, '_')).join('__')}`;
        this.db.exec(
          `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName} ON ${name} (${index.fields.map(path).join(', ')})`,
        );
      }
    });
  }

  dropIndexes(collections: readonly string[]): Promise<void> {
    for (const collection of collections) {
      const name = this.ensureTable(collection);
      const indexes = this.prepare<[string], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
      ).all(name);
      for (const index of indexes) this.db.exec(`DROP INDEX IF EXISTS "${index.name}"`);
    }
    return Promise.resolve();
  }

  get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const row = this.prepare<[string], { doc: string }>(`SELECT doc FROM ${this.ensureTable(collection)} WHERE id = ?`)
      .get(id);
    return Promise.resolve(row ? (JSON.parse(row.doc) as T) : null);
  }

  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return Promise.resolve([]);
    // One statement whatever the count: the ids go in as one JSON array parameter.
    const rows = this.prepare<[string], { doc: string }>(`SELECT doc FROM ${this.ensureTable(collection)} WHERE id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(ids));
    return Promise.resolve(rows.map((row) => JSON.parse(row.doc) as T));
  }

  find<T extends Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    return settle(() => this.findNow<T>(collection, query));
  }

  private findNow<T extends Doc>(collection: string, query: FindQuery): Page<T> {
    const name = this.ensureTable(collection);
    const where = whereClause(query.where);
    const order = path(query.orderBy);
    let cursorSql = '1';
    const cursorParams: SqlValue[] = [];
    if (query.startingAfter !== undefined) {
      const scope = whereClause(query.cursorWhere);
      const cursor = this.prepare<SqlValue[], { sort: SqlValue }>(`SELECT ${order} AS sort FROM ${name} WHERE id = ? AND ${scope.sql}`)
        .get(query.startingAfter, ...scope.params);
      if (!cursor) throw new UnknownCursor(query.startingAfter);
      cursorSql = `(${order} < ? OR (${order} = ? AND id < ?))`;
      cursorParams.push(cursor.sort, cursor.sort, query.startingAfter);
    }
    const rows = this.prepare<SqlValue[], { doc: string }>(
        `SELECT doc FROM ${name} WHERE ${where.sql} AND ${cursorSql} ORDER BY ${order} DESC, id DESC LIMIT ?`,
      )
      .all(...where.params, ...cursorParams, query.limit + 1);
    return {
      data: rows.slice(0, query.limit).map((row) => JSON.parse(row.doc) as T),
      hasMore: rows.length > query.limit,
    };
  }

  findAll<T extends Doc>(collection: string, conditions?: readonly Condition[]): Promise<T[]> {
    const where = whereClause(conditions);
    const rows = this.prepare<SqlValue[], { doc: string }>(
        `SELECT doc FROM ${this.ensureTable(collection)} WHERE ${where.sql} ORDER BY id`,
      )
      .all(...where.params);
    return Promise.resolve(rows.map((row) => JSON.parse(row.doc) as T));
  }

  count(collection: string, conditions?: readonly Condition[]): Promise<number> {
    const where = whereClause(conditions);
    const row = this.prepare<SqlValue[], { n: number }>(`SELECT COUNT(*) AS n FROM ${this.ensureTable(collection)} WHERE ${where.sql}`)
      .get(...where.params);
    return Promise.resolve(row?.n ?? 0);
  }

  commit(writes: readonly Write[], checkpoints: readonly Checkpoint[] = []): Promise<void> {
    return writeInGroup(this.db, () => this.commitNow(writes, checkpoints));
  }

  private commitNow(writes: readonly Write[], checkpoints: readonly Checkpoint[]): void {
    const statements = writes.map((write) => ({ write, name: this.ensureTable(write.collection) }));
    this.db.transaction(() => {
      for (const { write, name } of statements) {
        if (write.op === 'put' || write.op === 'put_json') {
          this.prepare(`INSERT INTO ${name} (id, doc) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`)
            .run(...(write.op === 'put' ? [write.doc.id, JSON.stringify(write.doc)] : [write.id, write.json]));
        } else if (write.op === 'delete') {
          this.prepare(`DELETE FROM ${name} WHERE id = ?`).run(write.id);
        } else {
          this.prepare(`DELETE FROM ${name} WHERE ${path(write.field)} = ?`).run(write.eq);
        }
      }
      for (const checkpoint of checkpoints) {
        this.prepare(
            'INSERT INTO projection_checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position',
          )
          .run(checkpoint.name, checkpoint.position.toString());
      }
    })();
  }

  checkpoint(name: string): Promise<bigint> {
    const row = this.prepare<[string], { position: string }>('SELECT position FROM projection_checkpoints WHERE name = ?')
      .get(name);
    return Promise.resolve(row ? BigInt(row.position) : 0n);
  }

  reset(collections: readonly string[], checkpointNames: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      for (const collection of collections) this.db.exec(`DELETE FROM ${this.ensureTable(collection)}`);
      for (const name of checkpointNames) this.prepare('DELETE FROM projection_checkpoints WHERE name = ?').run(name);
    })();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
