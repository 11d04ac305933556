import type { SqliteDatabase } from './open-database';
import { settle } from './settle';

type Waiter = { resolve: () => void; reject: (error: Error) => void; onCommitted: (() => void) | undefined };

/**
 * How a write joins the group. `onCommitted` runs once the group's COMMIT has succeeded, before any
 * of its promises settle, in the order the writes were staged (never for a write inside a
 * transaction someone else opened, whose commit this cannot see). `oneStatement`: see `atomically`.
 */
export type WriteOptions = Readonly<{ onCommitted?: () => void; oneStatement?: boolean }>;

type Statement = Readonly<{ run(): unknown }>;
type Atomic = Readonly<{ begin: Statement; commit: Statement; rollback: Statement; savepoint: Statement; release: Statement; rollbackTo: Statement }>;
const atomics = new WeakMap<SqliteDatabase, Atomic>();

/**
 * Runs `work` atomically: as a savepoint of the transaction open on `db`, else in a transaction of
 * its own (`BEGIN IMMEDIATE`); a throw undoes what it wrote and propagates. `oneStatement`: `work`
 * runs a single write statement (and nothing after it that can throw), which needs no savepoint. What `db.transaction(work)()`
 * does, with the statements prepared once per connection: better-sqlite3 builds four wrapped functions
 * per `transaction` call, which cost the loop more than the savepoint itself (every write makes one).
 */
export const atomically = <T>(db: SqliteDatabase, work: () => T, oneStatement = false): T => {
  // One statement is atomic by itself: SQLite undoes a failed statement's changes and leaves the
  // transaction open, as a savepoint rolled back to would. Only a transaction of its own is needed.
  if (oneStatement && db.inTransaction) return work();
  let atomic = atomics.get(db);
  if (!atomic) {
    atomic = {
      begin: db.prepare<[]>('BEGIN IMMEDIATE'),
      commit: db.prepare<[]>('COMMIT'),
      rollback: db.prepare<[]>('ROLLBACK'),
      savepoint: db.prepare<[]>('SAVEPOINT write'),
      release: db.prepare<[]>('RELEASE write'),
      rollbackTo: db.prepare<[]>('ROLLBACK TO write'),
    };
    atomics.set(db, atomic);
  }
  const nested = db.inTransaction;
  (nested ? atomic.savepoint : atomic.begin).run();
  try {
    const value = work();
    (nested ? atomic.release : atomic.commit).run();
    return value;
  } catch (error) {
    // A failed statement may have ended the transaction already (SQLite rolls back on some errors).
    if (db.inTransaction) {
      if (nested) {
        atomic.rollbackTo.run();
        atomic.release.run();
      } else {
        atomic.rollback.run();
      }
    }
    throw error;
  }
};

/** A write made now, in the open transaction, whose caller does not wait for its commit: its result, and that commit. */
export type Staged<T> = Readonly<{ value: T; committed: Promise<void> }>;

/**
 * Group commit on one SQLite connection: the first write of a loop turn opens one transaction,
 * every write made in that turn runs in it as a savepoint of its own, and one COMMIT (one fsync)
 * at the end of the turn makes them all durable; each write's promise settles only then.
 *
 * - A write that throws (a version conflict, a constraint) is rolled back to its savepoint and
 *   rejected at once: it fails alone, the others stay in the group.
 * - A COMMIT that fails rolls the whole transaction back and rejects every write of the group:
 *   nothing half-written, and every waiting request answers an error.
 * - Reads on the connection see the group's writes before they are committed (one loop turn at
 *   most). A write built on them lands in the same group, or in a later one that checks the
 *   expected revision again; only a read-only answer could show a write whose commit then fails.
 *
 * Durability is unchanged (WAL, `synchronous=FULL`): nothing is acknowledged before its fsync.
 */
export class GroupCommit {
  private waiters: Waiter[] | null = null;
  /** Commits made (one fsync each) and writes that joined them, since the start: the bench's per-request profile. */
  readonly counts = { commits: 0, writes: 0 };

  constructor(private readonly db: SqliteDatabase) {}

  /** Runs `work` now inside the turn's transaction; resolves with its result once that transaction is committed. */
  run<T>(work: () => T, options: WriteOptions = {}): Promise<T> {
    let staged: Staged<T>;
    try {
      staged = this.stage(work, options);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return staged.committed.then(() => staged.value);
  }

  /**
   * Runs `work` now inside the turn's transaction (a throw rolls back its savepoint and propagates
   * as is) and hands back its result at once, with the promise of that transaction's commit. For a
   * write whose caller need not wait for its fsync before going on, because what it later
   * acknowledges waits for that commit or a later one (which fails when this one did: see
   * `committed`'s users). Inside a transaction someone else opened, that owner commits it:
   * `committed` is then already resolved.
   */
  stage<T>(work: () => T, { onCommitted, oneStatement = false }: WriteOptions = {}): Staged<T> {
    if (this.db.inTransaction && this.waiters === null) return { value: atomically(this.db, work, oneStatement), committed: Promise.resolve() };
    if (this.waiters === null) {
      this.db.exec('BEGIN IMMEDIATE');
      this.waiters = [];
      setImmediate(() => this.commit());
    }
    // A savepoint of the open transaction, rolled back to on a throw.
    const value = atomically(this.db, work, oneStatement);
    const committed = new Promise<void>((resolve, reject) => this.waiters!.push({ resolve, reject, onCommitted }));
    // A caller that only needs the value leaves no unhandled rejection behind.
    committed.catch(() => undefined);
    return { value, committed };
  }

  /** Commits the open group now (before the connection closes); a no-op without one. */
  commit(): void {
    const waiters = this.waiters;
    if (waiters === null) return;
    this.waiters = null;
    this.counts.commits += 1;
    this.counts.writes += waiters.length;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const waiter of waiters) waiter.reject(failure);
      return;
    }
    for (const waiter of waiters) waiter.onCommitted?.();
    for (const waiter of waiters) waiter.resolve();
  }
}

const groups = new WeakMap<SqliteDatabase, GroupCommit>();

/** Makes every adapter write on `db` join a group commit (the service's own connection). */
export const enableGroupCommit = (db: SqliteDatabase): GroupCommit => {
  const group = groups.get(db) ?? new GroupCommit(db);
  groups.set(db, group);
  return group;
};

/**
 * An adapter's write: in the connection's group commit when it has one, else in a transaction of
 * its own (a CLI, a test's second connection: other connections in the same process would wait
 * on a group's lock that only this loop can release).
 */
export const writeInGroup = <T>(db: SqliteDatabase, work: () => T, options: WriteOptions = {}): Promise<T> => {
  const group = groups.get(db);
  if (group) return group.run(work, options);
  return settle(() => {
    const nested = db.inTransaction;
    const value = atomically(db, work, options.oneStatement);
    // Committed here unless inside a transaction someone else opened (whose commit this cannot see).
    if (!nested) options.onCommitted?.();
    return value;
  });
};

/**
 * An adapter's write whose caller goes on before its commit (see `GroupCommit.stage`); without a
 * group commit, in a transaction of its own, committed when this returns. A throw propagates.
 */
export const stageInGroup = <T>(db: SqliteDatabase, work: () => T, options: WriteOptions = {}): Staged<T> => {
  const group = groups.get(db);
  return group ? group.stage(work, options) : { value: atomically(db, work, options.oneStatement), committed: Promise.resolve() };
};

/** Commits the connection's open group, if any: before it closes. */
export const commitGroup = (db: SqliteDatabase): void => groups.get(db)?.commit();
