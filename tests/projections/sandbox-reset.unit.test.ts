import type { StoredEvent } from '../../infra/event-store/port';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { batchContext } from '../../projections/engine/batch-context';
import { CUSTOMERS, customersProjection } from '../../projections/read-models/customers';
import { SANDBOX_GENERATIONS } from '../../projections/read-models/organisations';
import { SandboxGenerations } from '../../projections/read-models/sandbox-generations';
import { emptiedBySandboxReset } from '../../projections/read-models/sandbox-reset';
import { projectionSpec } from '../support/projection-spec';
import { testMetadata } from '../support/events';

const imported = (customerId: string, organisationId: string) => ({
  type: 'CustomerImported',
  data: { customerId, organisationId, code: customerId, name: null, firstName: null, lastName: null, email: null, accountingContactId: null, source: 'sandbox_copy' },
});
const reset = (organisationId: string, generation = 1) => ({
  type: 'SandboxReset',
  data: { organisationId, generation, copy: { settings: false, catalogue: false, customers: false, subscriptions: false } },
});
/** Written in the sandbox's generation `resetGeneration`, as the commands that create its objects record it. */
const inGeneration = <E extends { type: string; data: unknown }>(event: E, resetGeneration: number) => ({ ...event, metadata: { livemode: false, organisationId: 'org_sbx', resetGeneration } });
const projection = emptiedBySandboxReset(customersProjection);
const doc = (id: string, organisationId: string) => expect.objectContaining({ id, _organisation: organisationId });

describe('a read model emptied by a sandbox reset', () => {
  it('drops the sandbox’s documents at the reset, keeps those made after it and every other organisation’s', async () => {
    await projectionSpec(projection)
      .given([imported('cus_a', 'org_sbx'), imported('cus_live', 'org_live'), reset('org_sbx'), imported('cus_b', 'org_sbx')])
      .then(CUSTOMERS, [doc('cus_b', 'org_sbx'), doc('cus_live', 'org_live')]);
  });

  it('skips a write of an earlier generation that lands after a later reset (another process read the generation before the reset), and nothing else', async () => {
    await projectionSpec(() => emptiedBySandboxReset(customersProjection))
      .given([
        inGeneration(imported('cus_before', 'org_sbx'), 0),
        reset('org_sbx', 1),
        inGeneration(imported('cus_late', 'org_sbx'), 0),
        inGeneration(imported('cus_new', 'org_sbx'), 1),
        // Events without a generation (written before it was recorded) and live ones are applied as they come.
        imported('cus_unstamped', 'org_sbx'),
        { ...imported('cus_live', 'org_live'), metadata: { livemode: true, organisationId: 'org_live', resetGeneration: 0 } },
        // A generation learnt from the events themselves: after generation 2's first event, one of generation 1 is late.
        inGeneration(imported('cus_gen2', 'org_sbx'), 2),
        inGeneration(imported('cus_late_1', 'org_sbx'), 1),
      ])
      .then(CUSTOMERS, [doc('cus_gen2', 'org_sbx'), doc('cus_live', 'org_live'), doc('cus_new', 'org_sbx'), doc('cus_unstamped', 'org_sbx')]);
  });

  it('shares what it learns: read models resumed through one view read the organisations’ generations once, and each skips by them', async () => {
    const readStore = new SqliteReadStore(openDatabase(':memory:'));
    await readStore.commit([{ op: 'put', collection: SANDBOX_GENERATIONS, doc: { id: 'org_sbx', generation: 1 } }]);
    let reads = 0;
    const live = { findAll: ((...args: Parameters<SqliteReadStore['findAll']>) => (reads++, readStore.findAll(...args))) as SqliteReadStore['findAll'] };
    const generations = new SandboxGenerations();
    const customers = emptiedBySandboxReset(customersProjection, generations);
    const alsoCustomers = emptiedBySandboxReset(customersProjection, generations);
    await Promise.all([customers.resume!(live), alsoCustomers.resume!(live)]);
    expect(reads).toBe(1);
    const late = { ...inGeneration(imported('cus_late', 'org_sbx'), 0), id: 'e1', version: 1, streamId: 'spec', revision: 0, position: 1n } as unknown as StoredEvent;
    const context = batchContext(readStore);
    await alsoCustomers.apply(late, context);
    expect(context.writes()).toEqual([]);
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
