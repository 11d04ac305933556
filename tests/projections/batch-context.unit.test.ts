import type { Doc } from '../../infra/read-store/port';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { batchContext } from '../../projections/batch-context';

const emptyStore = { get: () => Promise.resolve(null), getMany: () => Promise.resolve([]) };

describe('a projection batch', () => {
  it('writes a document put many times once, as last put, with its indexed fields', async () => {
    const context = batchContext(emptyStore, new Map([['invoices', ['_organisation', 'accounting.sync_status']]]));
    context.put('invoices', { id: 'inv_1', _organisation: 'org_1', accounting: { sync_status: 'pending' } });
    const raised = await context.get<Doc & { accounting: object }>('invoices', 'inv_1');
    context.put('invoices', { ...raised!, accounting: { sync_status: 'synced' } });
    expect(context.held()).toBe(1);
    expect(context.writes()).toEqual([
      {
        op: 'put_json',
        collection: 'invoices',
        id: 'inv_1',
        json: JSON.stringify({ id: 'inv_1', _organisation: 'org_1', accounting: { sync_status: 'synced' } }),
        fields: { _organisation: 'org_1', 'accounting.sync_status': 'synced' },
      },
    ]);
  });

  it('refuses, under test, a handler that changes a document it put or got instead of putting a changed copy', async () => {
    const context = batchContext(emptyStore);
    const doc = { id: 'org_1', accounting: { connected: false } };
    context.put('organisations', doc);
    expect(() => (doc.accounting.connected = true)).toThrow(TypeError);
    const got = await context.get<typeof doc>('organisations', 'org_1');
    expect(() => (got!.accounting = { connected: true })).toThrow(TypeError);
    expect(JSON.parse((context.writes()[0] as { json: string }).json)).toEqual({ id: 'org_1', accounting: { connected: false } });
  });

  it('reads many ids as its writes leave them: held ones from memory (deleted ones gone), the rest from the store unless erased', async () => {
    const readStore = new SqliteReadStore(openDatabase(':memory:'));
    const committed = batchContext(readStore);
    committed.putEach('keys', ['k_stored', 'k_deleted', 'k_replaced'], { subscription: 'sub_1', _organisation: 'org_1' });
    committed.putEach('keys', ['k_erased'], { subscription: 'sub_1', _organisation: 'org_sbx' });
    await readStore.commit(committed.writes());

    const context = batchContext(readStore);
    context.deleteWhere('keys', '_organisation', 'org_sbx');
    context.putEach('keys', ['k_held'], { subscription: 'sub_2', _organisation: 'org_1' });
    context.put('keys', { id: 'k_replaced', subscription: 'sub_3', _organisation: 'org_1' });
    context.delete('keys', 'k_deleted');
    const found = await context.getMany<Doc>('keys', ['k_held', 'k_stored', 'k_deleted', 'k_replaced', 'k_erased', 'k_unknown']);
    expect(found.map((doc) => [doc.id, doc.subscription]).sort()).toEqual([
      ['k_held', 'sub_2'],
      ['k_replaced', 'sub_3'],
      ['k_stored', 'sub_1'],
    ]);
  });
});
