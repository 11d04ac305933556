import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { adminTokenFile } from '../../infra/admin-token';
import { Database } from '../../infra/sqlite/driver';
import { type CopyProgress, copyOnline } from '../../infra/sqlite/online-copy';
import type { SqliteDatabase } from '../../infra/sqlite/open-database';
import { databaseFile, demoLedgerFile } from '../services';
import { BACKUP_FORMAT, BACKUP_VERSION, FILES_TABLE, MANIFEST_TABLE, type Manifest, Refused } from './backup-format';

export type BackupWritten = Readonly<{ manifest: Manifest; files: readonly string[] }>;

/** What is being copied (`database`, `demo-accounting.sqlite`) and how far. */
export type BackupProgress = (what: string, progress: CopyProgress) => void;

const eventPosition = (db: SqliteDatabase): number => {
  const log = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'events'`).get();
  return log ? ((db.prepare('SELECT MAX(global_position) AS head FROM events').get() as { head: number | null }).head ?? 0) : 0;
};

/**
 * Writes a backup of the data directory to `out` while the service runs on it: the database copied
 * online (`copyOnline`: every write acknowledged before the copy began is in it), then the
 * demonstration ledger the same way (after the database, so it holds every push the database
 * records; a push it holds that the database does not is found again by its Idempotency-Key), then
 * the admin token. Written beside `out` and renamed into place once complete.
 */
export const writeBackup = async (dataDir: string, out: string, onProgress?: BackupProgress): Promise<BackupWritten> => {
  if (existsSync(out)) throw new Refused(`${out} already exists: name a new file`, 2);
  const source = databaseFile(dataDir);
  if (!existsSync(source)) throw new Refused(`no database at ${source}: DATA_DIR must name the service's data directory`, 2);
  const partial = `${out}.partial`;
  const ledgerCopy = `${out}.ledger.partial`;
  try {
    await copyOnline(source, partial, (progress) => onProgress?.('database', progress));
    const carried: { name: string; content: Buffer }[] = [];
    const ledger = demoLedgerFile(dataDir);
    if (existsSync(ledger)) {
      await copyOnline(ledger, ledgerCopy, (progress) => onProgress?.(basename(ledger), progress));
      carried.push({ name: basename(ledger), content: readFileSync(ledgerCopy) });
    }
    const token = adminTokenFile(dataDir);
    if (existsSync(token)) carried.push({ name: basename(token), content: readFileSync(token) });

    const db = new Database(partial);
    try {
      // One self-contained file, no WAL beside it.
      db.pragma('journal_mode = DELETE');
      const manifest: Manifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, created_at: new Date().toISOString(), event_position: eventPosition(db), source: dataDir };
      db.exec(`CREATE TABLE ${MANIFEST_TABLE} (format TEXT NOT NULL, version INTEGER NOT NULL, created_at TEXT NOT NULL, event_position INTEGER NOT NULL, source TEXT NOT NULL);
               CREATE TABLE ${FILES_TABLE} (name TEXT PRIMARY KEY, content BLOB NOT NULL);`);
      db.prepare(`INSERT INTO ${MANIFEST_TABLE} VALUES (@format, @version, @created_at, @event_position, @source)`).run(manifest);
      const insert = db.prepare(`INSERT INTO ${FILES_TABLE} (name, content) VALUES (?, ?)`);
      for (const file of carried) insert.run(file.name, file.content);
      db.pragma('synchronous = FULL');
      db.close();
      renameSync(partial, out);
      return { manifest, files: carried.map((file) => file.name) };
    } finally {
      if (db.open) db.close();
    }
  } finally {
    rmSync(partial, { force: true });
    rmSync(ledgerCopy, { force: true });
  }
};
