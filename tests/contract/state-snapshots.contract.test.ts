import { join } from 'node:path';
import type { StateSnapshots } from '../../infra/state-snapshots/port';
import { SqliteStateSnapshots } from '../../infra/state-snapshots/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { tempDir } from '../support/test-service';

type Opened = { snapshots: StateSnapshots; reopen: () => StateSnapshots; close: () => void };

const describeSnapshots = (name: string, open: () => Opened) =>
  describe(`StateSnapshots contract: ${name}`, () => {
    let opened: Opened;
    beforeEach(() => {
      opened = open();
    });
    afterEach(() => opened.close());

    it('answers null for a stream without one, and the last written for one with', async () => {
      const { snapshots } = opened;
      expect(await snapshots.read('usage-sub_1')).toBeNull();
      await snapshots.write('usage-sub_1', { revision: 199, position: 12_345_678_901_234n, state: '{"a":1}' });
      await snapshots.write('usage-sub_2', { revision: 3, position: 4n, state: 'other' });
      await snapshots.write('usage-sub_1', { revision: 399, position: 12_345_678_902_000n, state: '{"a":2}' });
      expect(await snapshots.read('usage-sub_1')).toEqual({ revision: 399, position: 12_345_678_902_000n, state: '{"a":2}' });
      expect(await snapshots.read('usage-sub_2')).toEqual({ revision: 3, position: 4n, state: 'other' });
    });

    it('keeps them when reopened', async () => {
      await opened.snapshots.write('usage-sub_1', { revision: 7, position: 8n, state: 'kept' });
      expect(await opened.reopen().read('usage-sub_1')).toEqual({ revision: 7, position: 8n, state: 'kept' });
    });
  });

describeSnapshots('SQLite', () => {
  const path = join(tempDir('state-snapshots'), 'billing.sqlite');
  const dbs = [openDatabase(path)];
  return {
    snapshots: new SqliteStateSnapshots(dbs[0]!),
    reopen: () => {
      dbs[0]!.close();
      dbs.push(openDatabase(path));
      return new SqliteStateSnapshots(dbs.at(-1)!);
    },
    close: () => {
      for (const db of dbs) if (db.open) db.close();
    },
  };
});
