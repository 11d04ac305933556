import type BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Database } from './driver';

export type SqliteDatabase = BetterSqlite3.Database;

/**
 * SQLite's page cache per connection, in KiB (its default is 2 MiB). Keys that arrive in random
 * order (usage event ids, most often UUIDs) touch a b-tree page each: a page the cache holds is
 * neither read back from the file nor parsed again. 64 MiB: a batch of 100 random ids cost the
 * loop 20–30 % less at 200,000 stored ids; a ceiling, filled only as pages are used.
 */
const PAGE_CACHE_KIB = 65_536;

/**
 * Opens the embedded database file. WAL with synchronous=FULL: the event log is a ledger, and
 * WAL's default NORMAL may lose the last commits on power loss.
 */
export const openDatabase = (file: string): SqliteDatabase => {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return db;
};
