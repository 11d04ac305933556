import type { SqliteDatabase } from './open-database';

/** `db.prepare` that compiles each SQL text once and hands back the same statement after (SQL built per call pays the compile every time). */
export const statementCache = (db: SqliteDatabase): { prepare: SqliteDatabase['prepare'] } => {
  const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = db.prepare(source);
      statements.set(source, statement);
    }
    return statement;
  };
  return { prepare: prepare as SqliteDatabase['prepare'] };
};
