import { join } from 'node:path';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { portGenerationWriter } from '../../infra/read-store/sqlite-generation-writer';
import { openDatabase } from '../../infra/sqlite/open-database';
import { tempDir } from '../support/test-service';

describe("a port attached to the SQLite generation writer's thread (a rebuild partition's)", () => {
  it('commits on the writer’s one connection, in turn with the writer’s own commits, and fails its requests once the thread is gone', async () => {
    const db = openDatabase(join(tempDir('writer-port'), 'billing.sqlite'));
    const store = new SqliteReadStore(db);
    const writer = store.generationWriter();
    const attached = portGenerationWriter(await writer.attach!());
    try {
      await writer.commit([{ op: 'put', collection: 'items', doc: { id: 'a', by: 'writer' } }]);
      await attached.commit([{ op: 'put', collection: 'items', doc: { id: 'a', by: 'port' } }, { op: 'put', collection: 'items', doc: { id: 'b', by: 'port' } }], [{ name: 'cp_port', position: 3n }]);
      await writer.commit([{ op: 'delete', collection: 'items', id: 'b' }]);
      expect(await store.findAll('items')).toEqual([{ id: 'a', by: 'port' }]);
      expect(await store.checkpoint('cp_port')).toBe(3n);
    } finally {
      await writer.close();
    }
    // Nothing answers any more: a request fails instead of waiting forever.
    await expect(attached.commit([{ op: 'put', collection: 'items', doc: { id: 'c' } }])).rejects.toThrow("the generation writer's port closed");
    db.close();
  });
});
