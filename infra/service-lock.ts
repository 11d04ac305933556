import { Database } from './sqlite/driver';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Who holds a data directory, as its holder wrote it in `service.pid` once it had the lock. */
export type LockHolder = Readonly<{ pid: number; role: string; since: string }>;

/** Another process holds the data directory; `holder` says which, when it could be read. */
export class DataDirectoryInUse extends Error {
  override name = 'DataDirectoryInUse';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      holder
        ? `the ${holder.role} (pid ${holder.pid}) is running on ${dataDir} since ${holder.since}`
        : `another process is running on ${dataDir}`,
    );
  }
}

export type DataDirectoryLock = Readonly<{ release(): void }>;

const lockFile = (dataDir: string) => join(dataDir, 'service.lock');
const holderFile = (dataDir: string) => join(dataDir, 'service.pid');

const readHolder = (dataDir: string): LockHolder | null => {
  try {
    const [pid = '', role = 'service', since = 'unknown'] = readFileSync(holderFile(dataDir), 'utf8').trim().split('\n');
    return /^\d+$/.test(pid) ? { pid: Number(pid), role, since } : null;
  } catch {
    return null;
  }
};

/**
 * Takes the data directory for this process, before anything else touches it: an exclusive
 * transaction held on `service.lock`, a SQLite file. The lock is the operating system's (a POSIX
 * record lock), so it ends with the process however it ends: a `kill -9` cannot leave it wedged,
 * and no pid is ever trusted to decide. Only the holder then writes `service.pid` (pid, role and
 * start time), which names it to anyone refused. Throws DataDirectoryInUse when another holds it.
 */
export const lockDataDirectory = (dataDir: string, role: string, now: Date = new Date()): DataDirectoryLock => {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(lockFile(dataDir), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirectoryInUse(dataDir, readHolder(dataDir));
    throw error;
  }
  writeFileSync(holderFile(dataDir), `${process.pid}\n${role}\n${now.toISOString()}\n`);
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      if (readHolder(dataDir)?.pid === process.pid) rmSync(holderFile(dataDir), { force: true });
      db.exec('ROLLBACK');
      db.close();
    },
  };
};
