import type { SqliteDatabase } from '../sqlite/open-database';
import { assertCollection, assertField } from './names';
import type { Checkpoint, Condition, Doc, FindQuery, GenerationWriter, IdPage, IndexSpec, Page, ReadStore, Write } from './port';
import { threadGenerationWriter } from './sqlite-generation-writer';
import { UnknownCursor } from './unknown-cursor';
import { valueAt } from './field-value';
import { stageInGroup } from '../sqlite/group-commit';
import { settle } from '../sqlite/settle';

type SqlValue = string | number | null;
type Statement<P extends unknown[], R> = {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  run(...params: P): unknown;
};

const table = (collection: string): string => `rm_${assertCollection(collection)}`;
const path = (field: string): string => `json_extract(doc, '$.${assertField(field)}')`;
/** The column an indexed field is kept in beside the document (`a.b` in `f_a__b`); `id` is the table's own. */
const column = (field: string): string => {
  if (field === 'id') return 'id';
  if (assertField(field).includes('__')) throw new Error(`an indexed field cannot hold "__": ${field}`);
  return `f_${field.replace(/\./g, '__')}`;
};
// json_extract returns booleans as 1/0.
const sqlValue = (value: string | number | boolean | null): SqlValue =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value;

/** A write as SQL: a statement (prepared once per text) and its values. */
type SqlWrite = Readonly<{ sql: string; params: SqlValue[] }>;
/** How a table's documents are written: the statement, and the indexed fields whose values follow the id and the document. */
type Upsert = Readonly<{ sql: string; fields: readonly string[] }>;

/** A field's value as `json_extract` gives it (what its column holds). */
const asColumn = (value: unknown): SqlValue => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return JSON.stringify(value);
};

/** How a table's fields are read in SQL: its column when the field is indexed, otherwise from the document. */
type Fields = (field: string) => string;

const whereClause = (fieldSql: Fields, conditions: readonly Condition[] = []): { sql: string; params: SqlValue[] } => {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  for (const condition of conditions) {
    if ('eq' in condition) {
      if (condition.eq === null) parts.push(`${fieldSql(condition.field)} IS NULL`);
      else {
        parts.push(`${fieldSql(condition.field)} = ?`);
        params.push(sqlValue(condition.eq));
      }
    } else if ('in' in condition) {
      if (condition.in.length === 0) parts.push('0');
      else {
        parts.push(`${fieldSql(condition.field)} IN (${condition.in.map(() => '?').join(', ')})`);
        params.push(...condition.in.map(sqlValue));
      }
    } else if ('lte' in condition) {
      parts.push(`${fieldSql(condition.field)} <= ?`);
      params.push(condition.lte);
    } else {
      parts.push(`lower(${fieldSql(condition.field)}) = lower(?)`);
      params.push(condition.ieq);
    }
  }
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
};

/**
 * Read models as JSON documents in the embedded SQLite file, one table per collection. Every field
 * an index names is also kept in a column of its own, written with the document (its value as
 * `json_extract` would give it, taken from the put object or the values a batch gave with the text), so indexes are built on plain columns
 * and queries filter and sort on them; other fields are read from the document.
 */
export class SqliteReadStore implements ReadStore {
  /** Per table: its indexed fields and their columns, in the order they were added. */
  private readonly tables = new Map<string, Map<string, string>>();
  /** Each collection's table, once created (or found). */
  private readonly tableOf = new Map<string, string>();
  /** Per table, how a document is written (forgotten when a column is added). */
  private readonly upserts = new Map<string, Upsert>();
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
    const known = this.tableOf.get(collection);
    if (known) return known;
    const name = table(collection);
    this.tableOf.set(collection, name);
    if (!this.tables.has(name)) {
      let columnNames = this.columnNames(name);
      if (columnNames.length === 0) {
        this.db.exec(`CREATE TABLE IF NOT EXISTS ${name} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
        columnNames = this.columnNames(name);
      }
      const columns = new Map<string, string>();
      for (const columnName of columnNames) {
        if (columnName.startsWith('f_')) columns.set(columnName.slice(2).replace(/__/g, '.'), columnName);
      }
      this.tables.set(name, columns);
    }
    return name;
  }

  private columnNames(name: string): string[] {
    return this.db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}')`).all().map((row) => row.name);
  }

  /** How `name`'s fields read in SQL (its table ensured). */
  private fields(name: string): Fields {
    const columns = this.tables.get(name);
    return (field) => (field === 'id' ? 'id' : (columns?.get(field) ?? path(field)));
  }

  /**
   * A column for each field, filled from the documents already there: a table written before
   * indexed fields had columns (or before this index) is migrated once.
   */
  private ensureColumns(name: string, fields: readonly string[]): void {
    const columns = this.tables.get(name)!;
    for (const field of fields) {
      if (columns.has(field) || field === 'id') continue;
      this.db.transaction(() => {
        this.db.exec(`ALTER TABLE ${name} ADD COLUMN ${column(field)}`);
        this.db.exec(`UPDATE ${name} SET ${column(field)} = ${path(field)}`);
      })();
      columns.set(field, column(field));
      this.upserts.delete(name);
    }
  }

  /**
   * In one transaction (one commit, not one per column and index); a failure leaves the tables as
   * they were. Immediate, as every transaction here that reads the schema before it writes: a
   * deferred one would fail at its first write ("database is locked") if another connection had
   * committed since its read, instead of waiting its turn.
   */
  ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    return settle(() => {
      try {
        this.db.transaction(() => {
          for (const index of indexes) {
            const name = this.ensureTable(index.collection);
            this.ensureColumns(name, index.fields);
            const fields = index.fields.map((f) => f.replace(/\./g, '_')).join('__');
            // The same index over json_extract expressions, as tables were indexed before columns.
            this.db.exec(`DROP INDEX IF EXISTS ${name}__${fields}`);
            this.db.exec(
              `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${name}__by__${fields} ON ${name} (${index.fields.map(column).join(', ')})`,
            );
          }
        }).immediate();
      } catch (error) {
        // Columns added in the rolled-back transaction are gone: the layouts are read again.
        for (const { collection } of indexes) this.forgetLayout(collection);
        throw error;
      }
    });
  }

  /** Forgets what this connection knows of a collection's table (another connection, or a rollback, changed it). */
  private forgetLayout(collection: string): void {
    const name = this.tableOf.get(collection);
    this.tableOf.delete(collection);
    if (name) {
      this.tables.delete(name);
      this.upserts.delete(name);
    }
  }

  dropIndexes(collections: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      for (const collection of collections) {
        const name = this.ensureTable(collection);
        const indexes = this.prepare<[string], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
        ).all(name);
        for (const index of indexes) this.db.exec(`DROP INDEX IF EXISTS "${index.name}"`);
      }
    }).immediate();
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

  /**
   * Newest first: an index on the filtered fields then the order's (and `id`) is walked and stops at
   * the page's end. A filter by several values of one field (`status=a,b`) is one such walk per
   * value, merged: walked as one range, a set of rare values would read every document of the
   * organisation. The cursor is a row value, so a deep page seeks to its place.
   */
  private findNow<T extends Doc>(collection: string, query: FindQuery): Page<T> {
    const name = this.ensureTable(collection);
    const fields = this.fields(name);
    const order = fields(query.orderBy);
    let cursorSql = '1';
    const cursorParams: SqlValue[] = [];
    if (query.startingAfter !== undefined) {
      const scope = whereClause(fields, query.cursorWhere);
      const cursor = this.prepare<SqlValue[], { sort: SqlValue }>(`SELECT ${order} AS sort FROM ${name} WHERE id = ? AND ${scope.sql}`)
        .get(query.startingAfter, ...scope.params);
      if (!cursor) throw new UnknownCursor(query.startingAfter);
      cursorSql = `(${order}, id) < (?, ?)`;
      cursorParams.push(cursor.sort, query.startingAfter);
    }
    const conditions = query.where ?? [];
    const several = conditions.findIndex((condition) => 'in' in condition && condition.in.length > 1);
    const branches =
      several < 0
        ? [conditions]
        : [...new Set((conditions[several] as { field: string; in: readonly (string | number | boolean)[] }).in)].map((value) =>
            conditions.map((condition, i) => (i === several ? { field: condition.field, eq: value } : condition)),
          );
    const selects = branches.map((branch) => {
      const where = whereClause(fields, branch);
      return {
        sql: `SELECT doc, ${order} AS sort, id FROM ${name} WHERE ${where.sql} AND ${cursorSql} ORDER BY ${order} DESC, id DESC LIMIT ?`,
        params: [...where.params, ...cursorParams, query.limit + 1],
      };
    });
    const [only] = selects;
    const page =
      selects.length === 1 && only
        ? only
        : {
            sql: `SELECT doc, sort, id FROM (${selects.map((select) => `SELECT * FROM (${select.sql})`).join(' UNION ALL ')}) ORDER BY sort DESC, id DESC LIMIT ?`,
            params: [...selects.flatMap((select) => select.params), query.limit + 1],
          };
    const rows = this.prepare<SqlValue[], { doc: string }>(page.sql).all(...page.params);
    return {
      data: rows.slice(0, query.limit).map((row) => JSON.parse(row.doc) as T),
      hasMore: rows.length > query.limit,
    };
  }

  findAll<T extends Doc>(collection: string, conditions?: readonly Condition[], page?: IdPage): Promise<T[]> {
    const name = this.ensureTable(collection);
    const where = whereClause(this.fields(name), conditions);
    const after = page?.after === undefined ? [] : [page.after];
    const limit = page ? [page.limit] : [];
    const rows = this.prepare<SqlValue[], { doc: string }>(
        `SELECT doc FROM ${name} WHERE ${where.sql}${after.length > 0 ? ' AND id > ?' : ''} ORDER BY id${limit.length > 0 ? ' LIMIT ?' : ''}`,
      )
      .all(...where.params, ...after, ...limit);
    return Promise.resolve(rows.map((row) => JSON.parse(row.doc) as T));
  }

  count(collection: string, conditions?: readonly Condition[]): Promise<number> {
    const name = this.ensureTable(collection);
    const where = whereClause(this.fields(name), conditions);
    const row = this.prepare<SqlValue[], { n: number }>(`SELECT COUNT(*) AS n FROM ${name} WHERE ${where.sql}`)
      .get(...where.params);
    return Promise.resolve(row?.n ?? 0);
  }

  commit(writes: readonly Write[], checkpoints: readonly Checkpoint[] = [], visible?: () => void): Promise<void> {
    // Resolved to SQL first (tables made, indexed fields' columns read from each put document): what runs in the transaction is statements and values.
    const statements = writes.map((write) => this.sqlOf(write));
    // Every checkpoint in one statement (the runner moves one per projection at each batch).
    if (checkpoints.length > 0) {
      statements.push({
        sql: `INSERT INTO projection_checkpoints (name, position) VALUES ${checkpoints.map(() => '(?, ?)').join(', ')} ON CONFLICT(name) DO UPDATE SET position = excluded.position`,
        params: checkpoints.flatMap((checkpoint) => [checkpoint.name, checkpoint.position.toString()]),
      });
    }
    // Atomic in its savepoint of the turn's group commit (or its own transaction), and read on this
    // connection from now on: `visible` says so before the commit, so the writes of a request that
    // waited for them land in the same group.
    let staged;
    try {
      staged = stageInGroup(
        this.db,
        () => {
          for (const { sql, params } of statements) this.prepare(sql).run(...params);
        },
        // A commit of one statement (a follower's checkpoint, say) needs no savepoint around it.
        { oneStatement: statements.length === 1 },
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    visible?.();
    return staged.committed;
  }

  private sqlOf(write: Write): SqlWrite {
    const name = this.ensureTable(write.collection);
    if (write.op === 'put') {
      const { sql, fields } = this.upsert(name);
      return { sql, params: [write.doc.id, JSON.stringify(write.doc), ...fields.map((field) => asColumn(valueAt(write.doc, field)))] };
    }
    if (write.op === 'put_json') {
      const { sql, fields } = this.upsert(name);
      const given = write.fields ?? {};
      // A field the writer did not give (a put from elsewhere) is read from the document.
      let parsed: unknown;
      const value = (field: string) => (field in given ? given[field] : valueAt((parsed ??= JSON.parse(write.json)), field));
      return { sql, params: [write.id, write.json, ...fields.map((field) => asColumn(value(field)))] };
    }
    if (write.op === 'delete') return { sql: `DELETE FROM ${name} WHERE id = ?`, params: [write.id] };
    return { sql: `DELETE FROM ${name} WHERE ${this.fields(name)(write.field)} = ?`, params: [write.eq] };
  }

  /** The statement that writes a document with its indexed fields' columns, and those fields in its parameters' order. */
  private upsert(name: string): Upsert {
    const known = this.upserts.get(name);
    if (known) return known;
    const columns = [...this.tables.get(name)!];
    const names = columns.map(([, columnName]) => `, ${columnName}`).join('');
    const updates = columns.map(([, columnName]) => `, ${columnName} = excluded.${columnName}`).join('');
    const upsert = {
      sql: `INSERT INTO ${name} (id, doc${names}) VALUES (?, ?${', ?'.repeat(columns.length)}) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc${updates}`,
      fields: columns.map(([field]) => field),
    };
    this.upserts.set(name, upsert);
    return upsert;
  }

  deleteSomeWhere(collection: string, field: string, eq: string, limit: number): Promise<number> {
    const name = this.ensureTable(collection);
    const sql = `DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE ${this.fields(name)(field)} = ? LIMIT ?)`;
    let staged;
    try {
      staged = stageInGroup(this.db, () => (this.prepare(sql).run(eq, limit) as { changes: number }).changes, { oneStatement: true });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return staged.committed.then(() => staged.value);
  }

  checkpoint(name: string): Promise<bigint> {
    const row = this.prepare<[string], { position: string }>('SELECT position FROM projection_checkpoints WHERE name = ?')
      .get(name);
    return Promise.resolve(row ? BigInt(row.position) : 0n);
  }

  /**
   * On a thread of its own with its own connection to the file (a rebuild's inserts, commits and
   * the retired generation's drop off the caller's loop: freeing a 200,000-document generation's
   * pages takes about 0.1 s); an in-memory database, which no other connection can open, is
   * written here.
   */
  generationWriter(): GenerationWriter {
    if (this.db.memory) return { commit: (writes, checkpoints) => this.commit(writes, checkpoints), drop: (collections) => this.drop(collections), close: () => Promise.resolve() };
    const thread = threadGenerationWriter(this.db.name);
    return {
      ...thread,
      drop: async (collections) => {
        await thread.drop(collections);
        this.forgetDropped(collections);
      },
    };
  }

  reset(collections: readonly string[], checkpointNames: readonly string[]): Promise<void> {
    this.db.transaction(() => {
      // Only the tables already made: a reset makes none.
      for (const name of collections.map(table)) {
        if (this.columnNames(name).length > 0) this.db.exec(`DELETE FROM ${name}`);
      }
      for (const name of checkpointNames) this.prepare('DELETE FROM projection_checkpoints WHERE name = ?').run(name);
    }).immediate();
    return Promise.resolve();
  }

  /**
   * Each collection's table and those beside it named `<table>__…` (the tables and view of an
   * earlier layout: `__shared`, `__docs`), views first, in one transaction; then what this
   * connection holds of them. `rm_x_g1` is another collection's table, not one of `x`'s.
   */
  drop(collections: readonly string[]): Promise<void> {
    return settle(() => {
      const names = collections.map(table);
      const owned = (name: string) => names.some((owner) => name === owner || name.startsWith(`${owner}__`));
      this.db.transaction(() => {
        // Compared here, not with LIKE (whose `_` matches any character).
        const found = this.prepare<[], { type: 'table' | 'view'; name: string }>("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')")
          .all()
          .filter((row) => owned(row.name));
        for (const type of ['view', 'table'] as const) {
          for (const row of found) if (row.type === type) this.db.exec(`DROP ${type.toUpperCase()} IF EXISTS "${row.name.replace(/"/g, '""')}"`);
        }
      }).immediate();
      this.forgetDropped(collections);
    });
  }

  /** What this connection holds of dropped collections: their layouts and the statements naming their tables. */
  private forgetDropped(collections: readonly string[]): void {
    const names = collections.map(table);
    for (const collection of collections) this.forgetLayout(collection);
    // `\b`: not a table whose name merely begins with a dropped one's.
    for (const sql of this.statements.keys()) {
      if (names.some((name) => new RegExp(`\\b${name}\\b`).test(sql))) this.statements.delete(sql);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
