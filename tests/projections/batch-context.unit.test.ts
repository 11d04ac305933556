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

  it('reads a document of the store once a batch, and answers later reads with what it put or erased since', async () => {
    const reads: string[] = [];
    const store = {
      get: <T extends Doc>(collection: string, id: string): Promise<T | null> => {
        reads.push(`${collection}/${id}`);
        return Promise.resolve({ id, _organisation: 'org_1', timezone: 'Europe/London' } as unknown as T);
      },
    };
    const context = batchContext(store);
    expect(await context.get('report_organisations', 'org_1')).toMatchObject({ timezone: 'Europe/London' });
    expect(await context.get('report_organisations', 'org_1')).toMatchObject({ timezone: 'Europe/London' });
    expect(reads).toEqual(['report_organisations/org_1']);
    context.put('report_organisations', { id: 'org_1', _organisation: 'org_1', timezone: 'Asia/Tokyo' });
    expect(await context.get('report_organisations', 'org_1')).toMatchObject({ timezone: 'Asia/Tokyo' });
    await context.get('mrr_months', 'org_1/GBP/2026-03');
    context.deleteWhere('mrr_months', '_organisation', 'org_1');
    expect(await context.get('mrr_months', 'org_1/GBP/2026-03')).toBeNull();
    expect(reads).toEqual(['report_organisations/org_1', 'mrr_months/org_1/GBP/2026-03']);
    // Another batch reads the store again.
    await batchContext(store).get('report_organisations', 'org_1');
    expect(reads).toHaveLength(3);
  });

  it('finds the documents of an indexed field’s value: what the batch holds over what the store holds, none it erased', async () => {
    const stored: Doc[] = [
      { id: 'sub_1', _organisation: 'org_1', units: 1 },
      { id: 'sub_2', _organisation: 'org_1', units: 2 },
      { id: 'sub_3', _organisation: 'org_1', units: 3 },
    ];
    const store = {
      get: () => Promise.resolve(null),
      findWhere: <T extends Doc>(_collection: string, field: string, eq: string) => Promise.resolve(stored.filter((doc) => doc[field] === eq) as unknown as T[]),
    };
    const context = batchContext(store);
    context.put('mrr_subscriptions', { id: 'sub_2', _organisation: 'org_1', units: 20 });
    context.delete('mrr_subscriptions', 'sub_3');
    context.put('mrr_subscriptions', { id: 'sub_4', _organisation: 'org_1', units: 4 });
    context.put('mrr_subscriptions', { id: 'sub_5', _organisation: 'org_2', units: 5 });
    const found = await context.findWhere<Doc & { units: number }>('mrr_subscriptions', '_organisation', 'org_1');
    expect(found.map((doc) => [doc.id, doc.units]).sort()).toEqual([['sub_1', 1], ['sub_2', 20], ['sub_4', 4]]);
    context.deleteWhere('mrr_subscriptions', '_organisation', 'org_1');
    expect(await context.findWhere('mrr_subscriptions', '_organisation', 'org_1')).toEqual([]);
    await expect(batchContext(emptyStore).findWhere('mrr_subscriptions', '_organisation', 'org_1')).rejects.toThrow(/cannot find mrr_subscriptions by _organisation/);
  });

  it('computes a document put as computed when it is read or written, as it then stands', async () => {
    const context = batchContext(emptyStore, new Map([['mrr_months', ['_organisation']]]));
    const sums = { new: 0 };
    context.putComputed('mrr_months', 'org_1/GBP/2026-03', () => ({ id: 'org_1/GBP/2026-03', _organisation: 'org_1', new: String(sums.new) }));
    sums.new += 30;
    expect(await context.get('mrr_months', 'org_1/GBP/2026-03')).toMatchObject({ new: '30' });
    sums.new += 12;
    expect(context.held()).toBe(1);
    expect(context.writes()).toEqual([
      { op: 'put_json', collection: 'mrr_months', id: 'org_1/GBP/2026-03', json: JSON.stringify({ id: 'org_1/GBP/2026-03', _organisation: 'org_1', new: '42' }), fields: { _organisation: 'org_1' } },
    ]);
    context.putComputed('mrr_months', 'org_1/GBP/2026-04', () => null);
    expect(context.writes()).toContainEqual({ op: 'delete', collection: 'mrr_months', id: 'org_1/GBP/2026-04' });
  });
});
