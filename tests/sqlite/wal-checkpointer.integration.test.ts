import { join } from 'node:path';
import { openDatabase } from '../../infra/sqlite/open-database';
import { startWalCheckpointer } from '../../infra/sqlite/wal-checkpointer';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

describe('WAL checkpointer', () => {
  it('copies what the service commits into the database file on its own thread, the service checkpointing only past its backstop', async () => {
    const file = join(tempDir('checkpointer'), 'billing.sqlite');
    const db = openDatabase(file);
    const failures: Error[] = [];
    const checkpointer = startWalCheckpointer(db, (error) => failures.push(error), 10);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    // About 1,500 pages: past SQLite's default of 1,000, where the committing connection would checkpoint.
    db.transaction(() => {
      for (let i = 0; i < 1500; i++) insert.run('x'.repeat(4000));
    })();
    const copied = await until('the WAL copied', () => {
      const state = checkpointer.lastCheckpoint();
      return state !== null && state.log >= 1500 && state.checkpointed === state.log && state;
    });
    expect(copied.checkpointed).toBeGreaterThanOrEqual(1500);
    await checkpointer.close();
    expect(failures).toEqual([]);
    db.close();
  });

  it('hands checkpoints back to the service’s connection, and says why, when its thread fails', async () => {
    const db = openDatabase(join(tempDir('checkpointer'), 'billing.sqlite'));
    // The service's connection holds the file alone: the thread cannot open it (after its 5 s busy timeout).
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    const failures: Error[] = [];
    const checkpointer = startWalCheckpointer(db, (error) => failures.push(error), 10);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await until('the thread failed', () => failures.length > 0, 15_000);
    expect(failures[0]!.message).toContain('SQLITE_BUSY');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.close();
    db.close();
  }, 20_000);
});
