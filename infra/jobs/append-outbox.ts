import type { StoredEvent } from '../event-store/port';
import type { SqliteEventStore } from '../event-store/sqlite';
import type { JobQueue } from './port';
import { SqliteJobQueue } from './sqlite';

/** The job an event calls for, under an id derived from the event. */
export type OutboxJob<T> = Readonly<{ id: string; data: T; delayMs?: number }>;

/** Events whose jobs the outbox added; a log follower skips them (it would add them again, and run one already done). */
export type OutboxTaken = Readonly<{ handled(event: StoredEvent): boolean; close(): void }>;

/**
 * A transactional outbox: adds the jobs appended events call for inside the append's own
 * transaction, where the event log and the job queue share one database. A job then exists if and
 * only if its event is committed, and is looked for as soon as that commit is: no log follower's
 * turn and no commit of its own between the append and the job (the follower still adds the jobs
 * of events appended before this process, or by another connection).
 */
export type AppendOutbox = <T>(queue: JobQueue<T>, types: readonly string[], jobFor: (event: StoredEvent) => OutboxJob<T> | null) => OutboxTaken;

/** The embedded profile's outbox: the SQLite log and the SQLite job queue on one connection. */
export const sqliteAppendOutbox =
  (store: SqliteEventStore): AppendOutbox =>
  <T>(queue: JobQueue<T>, types: readonly string[], jobFor: (event: StoredEvent) => OutboxJob<T> | null): OutboxTaken => {
    if (!(queue instanceof SqliteJobQueue)) throw new Error(`the append outbox needs the embedded job queue, not ${queue.name}'s`);
    const embedded = queue as SqliteJobQueue<T>;
    const added = new Set<string>();
    const stop = store.onAppending({
      types: new Set(types),
      appending: (event) => {
        const job = jobFor(event);
        if (!job) return;
        const committed = embedded.addInTransaction(job.id, job.data, job.delayMs === undefined ? {} : { delayMs: job.delayMs });
        added.add(event.id);
        // Its group failed: the event is not in the log, and no follower will pass it.
        committed.catch(() => added.delete(event.id));
      },
    });
    return {
      // The follower reads each event once (its ids are unique), so an entry lives until it passes.
      handled: (event) => added.delete(event.id),
      close: () => {
        stop();
        added.clear();
      },
    };
  };
