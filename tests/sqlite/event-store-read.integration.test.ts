import { join } from 'node:path';
import { type NewEvent, WrongExpectedRevision } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { commitGroup, enableGroupCommit } from '../../infra/sqlite/group-commit';
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

describe('the log read whole right after appends (the latest committed events, kept in memory)', () => {
  it('answers exactly the beginning of what reading the file answers, never a refused append, nor past a gap', async () => {
    const file = join(tempDir('event-read-recent'), 'billing.sqlite');
    const db = openDatabase(file);
    enableGroupCommit(db);
    const store = new SqliteEventStore(db);
    const other = openDatabase(file);
    const otherProcess = new SqliteEventStore(other);
    let n = 0;
    const next = () => event(++n);
    // One turn's appends share a commit; the second first append to org_2 is refused (its events never committed).
    const turn = await Promise.allSettled([
      store.append('organisation-org_1', [next(), next()], 'no_stream'),
      store.append('organisation-org_2', [next()], 'no_stream'),
      store.append('organisation-org_2', [next(), next()], 'no_stream'),
      store.append('organisation-org_3', [next()], 'no_stream'),
    ]);
    expect(turn.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // Another process appends in between (this one never sees it committed): a gap in what is kept.
    await otherProcess.append('organisation-org_9', [next()], 'no_stream');
    await store.append('organisation-org_1', [next(), next(), next()], 1);
    await store.append('organisation-org_4', [next()], 'no_stream');

    const head = Number(await store.headPosition());
    const fromFile = await otherProcess.readAll(0n, 100);
    expect(fromFile.map((e) => Number(e.position))).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const plain = (events: readonly unknown[]) => events.map((e) => ({ ...(e as object) }));
    for (let after = 0; after <= head; after++) {
      for (const limit of [1, 2, 3, 100]) {
        const read = await store.readAll(BigInt(after), limit);
        const expected = fromFile.filter((e) => e.position > BigInt(after)).slice(0, limit);
        // A prefix: a follower asks again from where it got to.
        expect(plain(read)).toEqual(plain(expected.slice(0, read.length)));
        if (expected.length > 0) expect(read.length).toBeGreaterThan(0);
      }
    }
    // Followed as a follower does (ask again from the last one read until nothing comes), every event is read once, in order.
    const followed: number[] = [];
    for (let batch = await store.readAll(0n, 2); batch.length > 0; batch = await store.readAll(batch[batch.length - 1]!.position, 2)) {
      followed.push(...batch.map((e) => Number(e.position)));
    }
    expect(followed).toEqual(fromFile.map((e) => Number(e.position)));
    commitGroup(db);
    db.close();
    other.close();
  });
});

describe('a stream’s first append on the embedded log (refused by the unique stream and position, not looked up first)', () => {
  it('refuses it on a stream that exists, naming the stream’s revision; any other failure stays itself', async () => {
    const db = openDatabase(join(tempDir('event-first-append'), 'billing.sqlite'));
    const store = new SqliteEventStore(db);
    await store.append('organisation-org_1', [event(1), event(2)], 'no_stream');
    const refused = await store.append('organisation-org_1', [event(3)], 'no_stream').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WrongExpectedRevision);
    expect(refused).toMatchObject({ streamId: 'organisation-org_1', expected: 'no_stream', actual: 1 });
    // Nothing to append still checks the stream.
    await expect(store.append('organisation-org_1', [], 'no_stream')).rejects.toMatchObject({ actual: 1 });
    // A new stream whose event id is taken: the log's own refusal, not a revision conflict, and nothing appended.
    const duplicate = await store.append('organisation-org_2', [event(4), event(1)], 'no_stream').catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).not.toBeInstanceOf(WrongExpectedRevision);
    expect(await store.readStream('organisation-org_2')).toEqual([]);
    await expect(store.append('organisation-org_2', [event(5)], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0 });
    expect((await store.readStream('organisation-org_1')).map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
    db.close();
  });
});
