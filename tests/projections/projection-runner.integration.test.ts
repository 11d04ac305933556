import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import type { Projection } from '../../projections/projection';
import { ProjectionRunner } from '../../projections/runner';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';

// The catalogue must know the event type; OrganisationSettingsChanged is a real one.
const changed = (name: string) => testEvent('OrganisationSettingsChanged', { organisationId: 'org_1', changes: { name } });

const namesProjection = (version: number, suffix = ''): Projection => ({
  name: 'names',
  version,
  collections: ['names'],
  indexes: [],
  handles: ['OrganisationSettingsChanged'],
  apply: async (event, context) => {
    const data = event.data as { changes: { name: string } };
    const doc = (await context.get<{ id: string; names: string[] }>('names', 'all')) ?? { id: 'all', names: [] };
    context.put('names', { ...doc, names: [...doc.names, `${data.changes.name}${suffix}`] });
  },
});

describe('projection runner', () => {
  const open = () => {
    const db = openDatabase(join(tempDir('runner'), 'billing.sqlite'));
    return { db, store: new SqliteEventStore(db), readStore: new SqliteReadStore(db) };
  };

  it('follows the log in batches, reads its own batch’s writes, and lets a writer wait for its position', async () => {
    const { db, store, readStore } = open();
    const runner = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger(), { batchSize: 2 });
    await runner.start();
    let position = 0n;
    for (const name of ['a', 'b', 'c', 'd', 'e']) position = (await store.append('organisation-org_1', [changed(name)], 'any')).position;
    expect(await runner.waitFor(position, 2000)).toBe(true);
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['a', 'b', 'c', 'd', 'e'] });
    expect(await runner.waitFor(position + 100n, 50)).toBe(false);
    await runner.stop();
    db.close();
  });

  it('rebuilds a read model from zero when its version changes', async () => {
    const { db, store, readStore } = open();
    const first = new ProjectionRunner(store, readStore, [namesProjection(1)], silentLogger());
    await first.start();
    const { position } = await store.append('organisation-org_1', [changed('x'), changed('y')], 'any');
    await first.waitFor(position);
    await first.stop();
    const second = new ProjectionRunner(store, readStore, [namesProjection(2, '!')], silentLogger());
    await second.start();
    expect(await readStore.get('names', 'all')).toEqual({ id: 'all', names: ['x!', 'y!'] });
    await second.stop();
    db.close();
  });
});
