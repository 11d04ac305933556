import { packWrites, unpackWrites } from '../../infra/read-store/packed-writes';
import type { Write } from '../../infra/read-store/port';

describe('writes packed for a generation writer’s thread', () => {
  it('unpack to the very writes packed, in order, whatever their kinds, collections and indexed fields', () => {
    const writes: Write[] = [
      { op: 'deleteWhere', collection: 'invoices', field: '_organisation', eq: 'org_1' },
      { op: 'put_json', collection: 'invoices', id: 'inv_1', json: '{"id":"inv_1"}', fields: { _organisation: 'org_1', created: '2026-01-01' } },
      { op: 'put_json', collection: 'invoices', id: 'inv_2', json: '{"id":"inv_2"}', fields: { _organisation: 'org_2', created: undefined } },
      // The same fields in another order, then other fields: each starts a run of its own.
      { op: 'put_json', collection: 'invoices', id: 'inv_3', json: '{"id":"inv_3"}', fields: { created: '2026-01-03', _organisation: 'org_1' } },
      { op: 'put_json', collection: 'invoices', id: 'inv_4', json: '{"id":"inv_4"}', fields: { _organisation: 'org_1' } },
      { op: 'delete', collection: 'invoices', id: 'inv_5' },
      { op: 'put_json', collection: 'invoices', id: 'inv_6', json: '{"id":"inv_6"}', fields: { _organisation: 'org_1', created: null } },
      // Without fields, and another collection with the same fields.
      { op: 'put_json', collection: 'names', id: 'a', json: '{"id":"a"}' },
      { op: 'put_json', collection: 'names', id: 'b', json: '{"id":"b"}' },
      { op: 'put_json', collection: 'customers', id: 'cus_1', json: '{"id":"cus_1"}', fields: { _organisation: 'org_1', created: '2026-01-01' } },
      { op: 'put', collection: 'names', doc: { id: 'c', tags: ['x'] } },
      { op: 'put_json', collection: 'customers', id: 'cus_2', json: '{"id":"cus_2"}', fields: { _organisation: 'org_2', created: { nested: true } } },
    ];
    const packed = packWrites(writes);
    expect(unpackWrites(structuredClone(packed))).toEqual(writes);
    // The puts went as flat columns: 9 documents, 6 of them with two fields, one with one, two with none.
    expect(packed.ids).toHaveLength(9);
    expect(packed.values).toHaveLength(6 * 2 + 1);
    expect(unpackWrites(packWrites([]))).toEqual([]);
  });
});
