import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type NewEvent, WrongExpectedRevision } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { SqliteIdempotencyStore } from '../../infra/idempotency/sqlite';
import { SqliteReadStore } from '../../infra/read-store/sqlite';
import { commitGroup, enableGroupCommit, writeInGroup } from '../../infra/sqlite/group-commit';
import { openDatabase } from '../../infra/sqlite/open-database';
import { tempDir } from '../support/test-service';

const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data: { n: 1 },
  metadata: { organisationId: 'org_1', livemode: false, businessTime: '2026-01-01T00:00:00.000Z', recordedTime: '2026-01-01T00:00:00.000Z', actor: { type: 'system' }, requestId: null, causationId: null, correlationId: null } as unknown as NewEvent['metadata'],
});

/** The service's connection (group commit on) and a second one that sees only what is committed, as a restarted process would. */
const open = () => {
  const file = join(tempDir('group-commit'), 'billing.sqlite');
  const db = openDatabase(file);
  enableGroupCommit(db);
  const stores = { events: new SqliteEventStore(db), idempotency: new SqliteIdempotencyStore(db), readModels: new SqliteReadStore(db) };
  const observer = openDatabase(file);
  const committed = {
    events: (stream: string) => observer.prepare<[string], { type: string }>('SELECT type FROM events WHERE stream_id = ? ORDER BY stream_position').all(stream).map((row) => row.type),
    idempotencyKeys: () => observer.prepare<[], { key: string }>('SELECT key FROM idempotency_records ORDER BY key').all().map((row) => row.key),
    documents: () => observer.prepare<[], { id: string }>('SELECT id FROM rm_things ORDER BY id').all().map((row) => row.id),
  };
  const close = async () => {
    await stores.idempotency.close();
    commitGroup(db);
    db.close();
    observer.close();
  };
  return { db, stores, committed, close };
};

describe('group commit on the embedded SQLite connection', () => {
  let opened: ReturnType<typeof open>;
  beforeEach(() => {
    opened = open();
  });
  afterEach(() => opened.close());

  it('commits the writes of one loop turn together, and a conflict in the group fails only its own write', async () => {
    const { stores, committed, db } = opened;
    await stores.readModels.ensureIndexes([{ collection: 'things', fields: ['name'] }]);
    // Issued in one turn, as concurrent requests' writes are: both first appends to `s1` expect an empty stream.
    const writes = [
      stores.events.append('s1', [event('First')], 'no_stream'),
      stores.events.append('s1', [event('Racing')], 'no_stream'),
      stores.events.append('s2', [event('Other')], 'no_stream'),
      stores.idempotency.begin('key_1', 'k1', 'fp', Date.now()),
      stores.readModels.commit([{ op: 'put', collection: 'things', doc: { id: 'doc_1', name: 'one' } }]),
      // The same key again in the same turn: the first lock, not yet committed, already holds it.
      stores.idempotency.begin('key_1', 'k1', 'fp', Date.now()),
    ];
    // One transaction holds them all, not yet committed: another connection sees none of them.
    expect(db.inTransaction).toBe(true);
    expect(committed.events('s1')).toEqual([]);
    expect(committed.idempotencyKeys()).toEqual([]);

    const settled = await Promise.allSettled(writes);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevision);
    expect(settled.slice(3).map((result) => (result as PromiseFulfilledResult<{ kind?: string }>).value?.kind)).toEqual(['started', undefined, 'in_progress']);
    // Once the promises settle, the others are committed; the conflicting one left nothing behind.
    expect(db.inTransaction).toBe(false);
    expect(committed.events('s1')).toEqual(['First']);
    expect(committed.events('s2')).toEqual(['Other']);
    expect(committed.idempotencyKeys()).toEqual(['k1']);
    expect(committed.documents()).toEqual(['doc_1']);
    // The refused command, retried against the revision it now reads, succeeds in a later group.
    await stores.events.append('s1', [event('Racing')], 0);
    expect(committed.events('s1')).toEqual(['First', 'Racing']);
  });

  it('fails every write of a group whose commit fails, with nothing half-written', async () => {
    const { stores, committed, db } = opened;
    await stores.readModels.ensureIndexes([{ collection: 'things', fields: ['name'] }]);
    // A deferred foreign key is checked only at COMMIT: a real commit failure, no stub.
    db.exec(`CREATE TABLE parents (id TEXT PRIMARY KEY);
             CREATE TABLE children (parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`);
    const begun = stores.idempotency.begin('key_1', 'k1', 'fp', Date.now());
    const writes = [
      stores.events.append('s1', [event('First')], 'no_stream'),
      stores.readModels.commit([{ op: 'put', collection: 'things', doc: { id: 'doc_1', name: 'one' } }]),
      writeInGroup(db, () => db.prepare("INSERT INTO children (parent) VALUES ('missing')").run()),
    ];
    // The lock is answered before its commit (the request goes on, its writes joining the group)...
    const lock = await begun;
    expect(lock.kind).toBe('started');
    expect(db.inTransaction).toBe(true);
    const settled = await Promise.allSettled(writes);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    // ...and what it would acknowledge fails with the group: storing its answer waits for the lock's commit.
    if (lock.kind !== 'started') throw new Error('not started');
    await expect(stores.idempotency.complete('key_1', 'k1', lock.token, { status: 201, body: {} }, Date.now())).rejects.toThrow(/FOREIGN KEY/);

    expect(db.inTransaction).toBe(false);
    expect(committed.events('s1')).toEqual([]);
    expect(committed.idempotencyKeys()).toEqual([]);
    expect(committed.documents()).toEqual([]);
    // The connection is usable again, and the stream is still empty to it as well.
    await expect(stores.events.append('s1', [event('Again')], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0 });
    expect(committed.events('s1')).toEqual(['Again']);
    expect((await stores.idempotency.begin('key_1', 'k1', 'fp', Date.now())).kind).toBe('started');
  });

  it('rolls back the whole of a write that fails part-way, and only it', async () => {
    const { stores, committed } = opened;
    const taken = event('Taken');
    await stores.events.append('s0', [taken], 'no_stream');
    const writes = [
      stores.events.append('s1', [event('Kept')], 'no_stream'),
      // Its first event is inserted before the second's id is found taken: neither may stay.
      stores.events.append('s2', [event('Inserted'), { ...taken }], 'no_stream'),
      stores.events.append('s3', [event('AlsoKept')], 'no_stream'),
    ];
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([committed.events('s1'), committed.events('s2'), committed.events('s3')]).toEqual([['Kept'], [], ['AlsoKept']]);
    await expect(stores.events.append('s2', [event('Retried')], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0 });
  });

  it('rolls back a one-statement write (no savepoint) that fails part-way, and only it', async () => {
    const { db } = opened;
    db.exec('CREATE TABLE numbers (n INTEGER PRIMARY KEY)');
    const ids = () => db.prepare<[], { n: number }>('SELECT n FROM numbers ORDER BY n').all().map((row) => row.n);
    await writeInGroup(db, () => db.prepare('INSERT INTO numbers (n) VALUES (1)').run(), { oneStatement: true });
    const writes = [
      writeInGroup(db, () => db.prepare('INSERT INTO numbers (n) VALUES (2)').run(), { oneStatement: true }),
      // One statement inserting 3 before it finds 1 taken: SQLite undoes the statement, and the group goes on.
      writeInGroup(db, () => db.prepare('INSERT INTO numbers (n) VALUES (3), (1)').run(), { oneStatement: true }),
      writeInGroup(db, () => db.prepare('INSERT INTO numbers (n) VALUES (4)').run(), { oneStatement: true }),
    ];
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(ids()).toEqual([1, 2, 4]);
  });

  it('runs a write inside a transaction someone else opened as a savepoint of it', async () => {
    const { stores, committed, db } = opened;
    db.exec('BEGIN');
    const appended = stores.events.append('s1', [event('Bulk')], 'no_stream');
    await expect(stores.events.append('s1', [event('Racing')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevision);
    await appended;
    expect(committed.events('s1')).toEqual([]);
    db.exec('COMMIT');
    expect(committed.events('s1')).toEqual(['Bulk']);
  });
});
