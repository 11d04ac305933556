import { join } from 'node:path';
import type { NewEvent } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';
import { tempDir } from '../support/test-service';

const event = (n: number): NewEvent => ({ id: `evt_${n}`, type: 'OrganisationSettingsChanged', version: 1, data: { organisationId: 'org_1', changes: { name: `n${n}`, nested: [n] } }, metadata: testMetadata() });

describe('the embedded log read whole (readAll)', () => {
  it('gives each event’s data as appended, parsed when first read: every way of reading it sees the same value', async () => {
    const db = openDatabase(join(tempDir('event-read'), 'billing.sqlite'));
    const store = new SqliteEventStore(db);
    await store.append('organisation-org_1', [event(1), event(2), event(3), event(4)], 'no_stream');
    const [first, second, third, fourth] = await store.readAll(0n, 10);
    // Read twice: the same object, not parsed again.
    expect(first!.data).toBe(first!.data);
    expect(first!.data).toEqual(event(1).data);
    // Each never read before: spread, serialized and cloned, as decoding, a job payload and a worker thread take it.
    expect({ ...second! }.data).toEqual(event(2).data);
    const text = JSON.stringify(third, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    expect((JSON.parse(text) as { data: unknown }).data).toEqual(event(3).data);
    expect(structuredClone(fourth)!.data).toEqual(event(4).data);
    expect(fourth).toMatchObject({ id: 'evt_4', streamId: 'organisation-org_1', revision: 3, position: 4n, type: 'OrganisationSettingsChanged', version: 1 });
    db.close();
  });
});
