import { batchContext } from '../../projections/engine/batch-context';
import type { Doc } from '../../infra/read-store/port';

const emptyStore = { get: () => Promise.resolve(null) };

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
});
