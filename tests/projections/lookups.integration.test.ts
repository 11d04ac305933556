import { join } from 'node:path';
import { usageRecordedData } from '../../domain/usage/events';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { readModelLookups } from '../../projections/lookups';
import { ProjectionRunner } from '../../projections/runner';
import { usageProjection } from '../../projections/usage';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';

const NOW = '2026-02-10T00:00:00.000Z';
const recorded = (subscriptionId: string, eventId: string) => ({
  ...testEvent('UsageRecorded', usageRecordedData(subscriptionId, 'org_1', NOW, [
    { eventId, meterId: 'mtr_calls', meterCode: 'api_calls', quantity: '1.0000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' },
  ])),
  version: 2,
});

describe('read model lookups', () => {
  it('answer which subscription stored each usage event id, and the log position the answer includes', async () => {
    const db = openDatabase(join(tempDir('lookups'), 'billing.sqlite'));
    const store = new SqliteEventStore(db);
    const runner = new ProjectionRunner(store, new SqliteReadStore(db), [usageProjection], silentLogger());
    await runner.start();
    const lookups = readModelLookups(runner.readStore, () => runner.position());
    await store.append('usage-sub_1', [recorded('sub_1', 'a')], 'any');
    const { position } = await store.append('usage-sub_2', [recorded('sub_2', 'b')], 'any');
    expect(await runner.waitFor(position)).toBe(true);

    const answer = await lookups.usageEventSubscriptions('org_1', ['a', 'b', 'c']);
    expect(answer).toEqual({ stored: new Map([['a', 'sub_1'], ['b', 'sub_2']]), through: position });
    expect((await lookups.usageEventSubscriptions('org_2', ['a'])).stored.size).toBe(0);
    await runner.stop();
    await store.close();
  });
});
