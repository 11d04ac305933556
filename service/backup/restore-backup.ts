import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Database } from '../../infra/sqlite/driver';
import type { SqliteDatabase } from '../../infra/sqlite/open-database';
import { databaseFile } from '../services';
import { BACKUP_FORMAT, BACKUP_VERSION, FILES_TABLE, MANIFEST_TABLE, type Manifest, Refused } from './backup-format';

const SQLITE_HEADER = 'SQLite format 3\0';

const notABackup = (file: string, why: string) => new Refused(`${file} is not a backup of this service: ${why}`, 4);

const startsAsSqlite = (file: string): boolean => {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
};

/** SQLite's own check of every page and index; the first problems it names, or null when the file is whole. */
const integrityProblems = (db: SqliteDatabase): string | null => {
  const rows = db.pragma('integrity_check(5)', { simple: false }) as { integrity_check: string }[];
  const problems = rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
  return problems.length > 0 ? problems.join('; ') : null;
};

/** Reads the backup's manifest and carried files, refusing any file that is not a whole backup of this service. */
const readBackup = (file: string): { manifest: Manifest; files: { name: string; content: Buffer }[] } => {
  if (!existsSync(file)) throw new Refused(`${file}: no such file`, 2);
  if (!startsAsSqlite(file)) throw notABackup(file, 'not an SQLite database');
  let db: SqliteDatabase | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const problems = integrityProblems(db);
    if (problems) throw new Refused(`${file} failed its integrity check: ${problems}`, 5);
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[]).map((row) => row.name));
    if (!tables.has(MANIFEST_TABLE) || !tables.has(FILES_TABLE)) throw notABackup(file, `it has no ${MANIFEST_TABLE} table`);
    const manifest = db.prepare(`SELECT format, version, created_at, event_position, source FROM ${MANIFEST_TABLE}`).get() as Manifest | undefined;
    if (manifest?.format !== BACKUP_FORMAT) throw notABackup(file, `its ${MANIFEST_TABLE} table is not this service's`);
    if (manifest.version > BACKUP_VERSION) throw notABackup(file, `it was made by a newer version (format ${manifest.version})`);
    return { manifest, files: db.prepare(`SELECT name, content FROM ${FILES_TABLE}`).all() as { name: string; content: Buffer }[] };
  } catch (error) {
    if (error instanceof Refused) throw error;
    // What better-sqlite3 throws on a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB): the integrity check's answer too.
    throw new Refused(`${file} failed its integrity check: ${error instanceof Error ? error.message : String(error)}`, 5);
  } finally {
    db?.close();
  }
};

/**
 * Restores a backup into `dataDir`, which must be empty or not exist: refuses a non-empty directory,
 * a file that is not a backup of this service, and one that fails SQLite's integrity check, each
 * before writing anything. The directory is assembled beside its place and moved in whole, so a
 * restore cut short leaves nothing there. The service starts from it; its first start reads the
 * log to make the usage id index's snapshot again.
 */
export const restoreBackup = (from: string, dataDir: string): Manifest => {
  const target = resolve(dataDir);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Refused(`${dataDir} is not empty: restore into a new or empty directory`, 3);
  const { manifest, files } = readBackup(from);
  mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(join(dirname(target), `.${basename(target)}.restoring-`));
  try {
    const database = databaseFile(staging);
    copyFileSync(from, database);
    const db = new Database(database);
    db.exec(`DROP TABLE ${MANIFEST_TABLE}; DROP TABLE ${FILES_TABLE};`);
    // The carried files' pages, freed.
    db.exec('VACUUM');
    db.close();
    for (const { name, content } of files) {
      const path = join(staging, name);
      writeFileSync(path, content, { mode: 0o600 });
      if (!name.endsWith('.sqlite')) continue;
      // Read-write, so closing it leaves no WAL beside it.
      const carried = new Database(path, { fileMustExist: true });
      const problems = integrityProblems(carried);
      carried.close();
      if (problems) throw new Refused(`${from} carries ${name}, which failed its integrity check: ${problems}`, 5);
    }
    // An empty directory gives its place up (rmdir refuses one something was written into meanwhile).
    if (existsSync(target)) rmdirSync(target);
    renameSync(staging, target);
    return manifest;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
};
