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
});
