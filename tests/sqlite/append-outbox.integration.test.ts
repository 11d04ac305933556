import { join } from 'node:path';
import type { NewEvent, StoredEvent } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { sqliteAppendOutbox } from '../../infra/jobs/append-outbox';
import { SqliteJobQueues } from '../../infra/jobs/sqlite';
import { commitGroup, enableGroupCommit, writeInGroup } from '../../infra/sqlite/group-commit';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';
import { until } from '../support/until';

const event = (type: string): NewEvent => testEvent(type, { n: 1 });

type Push = { eventId: string; revision: number };

/** The service's connection (group commit on), its log and queue with the outbox between them, and a second connection that sees only what is committed. */
const open = (jobFor: (event: StoredEvent) => { id: string; data: Push } | null = (e) => ({ id: `push-${e.id}`, data: { eventId: e.id, revision: e.revision } })) => {
  const file = join(tempDir('append-outbox'), 'billing.sqlite');
  const db = openDatabase(file);
  enableGroupCommit(db);
  const store = new SqliteEventStore(db);
  const queues = new SqliteJobQueues(db);
  const queue = queues.queue<Push>('push', { attempts: 1, delayMs: () => 0 });
  const outbox = sqliteAppendOutbox(store)(queue, ['Raised'], jobFor);
  const observer = openDatabase(file);
  const committed = {
    events: () => observer.prepare<[], { type: string }>('SELECT type FROM events ORDER BY global_position').all().map((row) => row.type),
    jobs: () => observer.prepare<[], { id: string }>('SELECT id FROM jobs ORDER BY id').all().map((row) => row.id),
  };
  const close = async () => {
    outbox.close();
    await queues.close();
    commitGroup(db);
    db.close();
    observer.close();
  };
  return { db, store, queue, outbox, committed, close };
};

describe('the embedded outbox: a job exists if and only if the append of its event is committed', () => {
  let opened: ReturnType<typeof open>;
  afterEach(() => opened.close());

  it('adds the job in the append’s transaction, commits both at once, and runs it only once they are committed', async () => {
    opened = open();
    const { db, store, queue, outbox, committed } = opened;
    const runs: { job: Push; eventsCommitted: string[] }[] = [];
    queue.process((job) => {
      runs.push({ job: job.data, eventsCommitted: committed.events() });
      return Promise.resolve();
    });
    const raised = event('Raised');
    const other = event('Other');
    const appending = store.append('s1', [other, raised], 'no_stream');
    // Written, not committed: another connection sees neither the event nor its job.
    expect(db.inTransaction).toBe(true);
    expect(committed.events()).toEqual([]);
    expect(committed.jobs()).toEqual([]);

    await appending;
    await until('the job ran', () => runs.length === 1);
    // One job, for the event of the type the outbox follows, run after its event was committed.
    expect(runs).toEqual([{ job: { eventId: raised.id, revision: 1 }, eventsCommitted: ['Other', 'Raised'] }]);
    // A log follower skips the event whose job the outbox added (once), and only that one.
    expect(outbox.handled({ ...raised } as StoredEvent)).toBe(true);
    expect(outbox.handled({ ...raised } as StoredEvent)).toBe(false);
    expect(outbox.handled({ ...other } as StoredEvent)).toBe(false);
  });

  it('keeps neither the event nor its job when their commit fails, and runs nothing', async () => {
    opened = open();
    const { db, store, queue, outbox, committed } = opened;
    const runs: Push[] = [];
    queue.process((job) => {
      runs.push(job.data);
      return Promise.resolve();
    });
    // A deferred foreign key is checked only at COMMIT: a real commit failure, no stub.
    db.exec(`CREATE TABLE parents (id TEXT PRIMARY KEY);
             CREATE TABLE children (parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)`);
    const raised = event('Raised');
    const appending = store.append('s1', [raised], 'no_stream');
    const failing = writeInGroup(db, () => db.prepare("INSERT INTO children (parent) VALUES ('missing')").run());
    await expect(appending).rejects.toThrow(/FOREIGN KEY/);
    await expect(failing).rejects.toThrow(/FOREIGN KEY/);
    expect(committed.events()).toEqual([]);
    expect(committed.jobs()).toEqual([]);
    expect(outbox.handled({ ...raised } as StoredEvent)).toBe(false);

    // The next append of the stream commits with its job, which runs: nothing of the failed group is left over.
    const again = event('Raised');
    await store.append('s1', [again], 'no_stream');
    await until('the job ran', () => runs.length === 1);
    expect(runs).toEqual([{ eventId: again.id, revision: 0 }]);
    expect(committed.events()).toEqual(['Raised']);
  });

  it('fails the append when its job cannot be added', async () => {
    opened = open(() => {
      throw new Error('no job for this event');
    });
    const { store, committed } = opened;
    await expect(store.append('s1', [event('Raised')], 'no_stream')).rejects.toThrow('no job for this event');
    expect(committed.events()).toEqual([]);
    expect(committed.jobs()).toEqual([]);
    // An event of a type the outbox does not follow is appended as ever.
    await store.append('s1', [event('Other')], 'no_stream');
    expect(committed.events()).toEqual(['Other']);
  });
});
