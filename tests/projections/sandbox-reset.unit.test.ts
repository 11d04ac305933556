import type { StoredEvent } from '../../infra/event-store/port';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { batchContext } from '../../projections/batch-context';
import { CUSTOMERS, customersProjection } from '../../projections/customers';
import { emptiedBySandboxReset } from '../../projections/sandbox-reset';
import { projectionSpec } from '../support/projection-spec';
import { testMetadata } from '../support/events';

const imported = (customerId: string, organisationId: string) => ({
  type: 'CustomerImported',
  data: { customerId, organisationId, code: customerId, name: null, firstName: null, lastName: null, email: null, accountingContactId: null, source: 'sandbox_copy' },
});
const reset = (organisationId: string) => ({ type: 'SandboxReset', data: { organisationId, generation: 1, copy: { settings: false, catalogue: false, customers: false, subscriptions: false } } });
const projection = emptiedBySandboxReset(customersProjection);
const doc = (id: string, organisationId: string) => expect.objectContaining({ id, _organisation: organisationId });

describe('a read model emptied by a sandbox reset', () => {
  it('drops the sandbox’s documents at the reset, keeps those made after it and every other organisation’s', async () => {
    await projectionSpec(projection)
      .given([imported('cus_a', 'org_sbx'), imported('cus_live', 'org_live'), reset('org_sbx'), imported('cus_b', 'org_sbx')])
      .then(CUSTOMERS, [doc('cus_b', 'org_sbx'), doc('cus_live', 'org_live')]);
  });

  it('does the same in one runner batch against the store: committed documents and the batch’s own writes alike', async () => {
    const readStore = new SqliteReadStore(openDatabase(':memory:'));
    let position = 0n;
    const stored = (event: { type: string; data: unknown }): StoredEvent => ({
      ...event,
      id: `e${++position}`,
      version: 1,
      metadata: testMetadata(),
      streamId: 'spec',
      revision: 0,
      position,
    });
    const run = async (events: { type: string; data: unknown }[]) => {
      const context = batchContext(readStore);
      for (const event of events) await projection.apply(stored(event), context);
      await readStore.commit(context.writes());
      return context;
    };
    await run([imported('cus_committed', 'org_sbx'), imported('cus_live', 'org_live')]);
    const context = await run([imported('cus_pending', 'org_sbx'), reset('org_sbx'), imported('cus_after', 'org_sbx')]);
    expect(await context.get(CUSTOMERS, 'cus_committed')).toBeNull();
    expect((await readStore.findAll(CUSTOMERS)).map((d) => d.id)).toEqual(['cus_after', 'cus_live']);
  });

  it('empties documents put together (putEach) like any other, pending in the batch or committed', async () => {
    const readStore = new SqliteReadStore(openDatabase(':memory:'));
    const shared = (organisationId: string) => ({ subscription: 'sub_1', _organisation: organisationId });
    const committed = batchContext(readStore);
    committed.putEach('keys', ['k_committed'], shared('org_sbx'));
    committed.putEach('keys', ['k_live'], shared('org_live'));
    await readStore.commit(committed.writes());

    const context = batchContext(readStore);
    context.putEach('keys', ['k_pending', 'k_replaced'], shared('org_sbx'));
    context.put('keys', { id: 'k_replaced', subscription: 'sub_2', _organisation: 'org_live' });
    expect(await context.get('keys', 'k_pending')).toEqual({ id: 'k_pending', subscription: 'sub_1', _organisation: 'org_sbx' });
    context.deleteWhere('keys', '_organisation', 'org_sbx');
    context.putEach('keys', ['k_after'], shared('org_sbx'));
    expect(await context.get('keys', 'k_pending')).toBeNull();
    await readStore.commit(context.writes());
    expect((await readStore.findAll('keys')).map((d) => [d.id, d.subscription])).toEqual([
      ['k_after', 'sub_1'],
      ['k_live', 'sub_1'],
      ['k_replaced', 'sub_2'],
    ]);
  });
});
