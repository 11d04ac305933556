import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from '../sqlite/open-database';
import { stageInGroup, writeInGroup } from '../sqlite/group-commit';
import {
  type BeginResult,
  DEFAULT_IDEMPOTENCY,
  type IdempotencyOptions,
  type IdempotencyStore,
  type StoredResponse,
} from './port';

/** Each write of the store is one statement (`beginNow` reads, then writes once): no savepoint around it. */
const ONE_STATEMENT = { oneStatement: true } as const;

type Row = { fingerprint: string; token: string | null; response: string | null; expires_ms: number };

/** How often expired records are purged, and how many rows one purge statement deletes. */
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 1000;

/**
 * The embedded idempotency store: one row per (scope, key), a lock (with its owner) or a stored
 * success. A request touches only its own row (the primary key); expired rows are purged in the
 * background by `now` (the wall clock the API stamps records with), never on a request's path: an
 * expired row still present is treated as absent and overwritten.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly leaseMs: number;
  private readonly owner: string;
  private readonly beginNow;
  private readonly completeStmt;
  private readonly releaseStmt;
  private readonly forgetStmt;
  private readonly renewStmt;
  private readonly abandonedStmt;
  private readonly purgeStmt;
  private readonly purger: NodeJS.Timeout;
  /** The commit of each lock taken but not yet seen committed, by its token: the holder's `complete` waits for it. */
  private readonly uncommittedLocks = new Map<string, Promise<void>>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: IdempotencyOptions = DEFAULT_IDEMPOTENCY,
    now: () => number = Date.now,
  ) {
    this.leaseMs = options.leaseMs;
    this.owner = options.owner ?? randomUUID();
    db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_records (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        token TEXT,
        response TEXT,
        expires_ms INTEGER NOT NULL,
        owner TEXT,
        PRIMARY KEY (scope, key)
      );
      -- The background purge finds expired records by this index, not by a scan of the whole table.
      CREATE INDEX IF NOT EXISTS idempotency_records_expires ON idempotency_records (expires_ms);
    `);
    // A file made before locks recorded their owner.
    if (!(db.pragma('table_info(idempotency_records)') as { name: string }[]).some((column) => column.name === 'owner')) {
      db.exec('ALTER TABLE idempotency_records ADD COLUMN owner TEXT');
    }
    const find = db.prepare<[string, string], Row>(
      'SELECT fingerprint, token, response, expires_ms FROM idempotency_records WHERE scope = ? AND key = ?',
    );
    const lock = db.prepare(
      `INSERT INTO idempotency_records (scope, key, fingerprint, token, response, expires_ms, owner) VALUES (?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token,
         response = NULL, expires_ms = excluded.expires_ms, owner = excluded.owner`,
    );
    this.purgeStmt = db.prepare(
      'DELETE FROM idempotency_records WHERE rowid IN (SELECT rowid FROM idempotency_records WHERE expires_ms <= ? LIMIT ?)',
    );
    this.beginNow = (scope: string, key: string, fingerprint: string, nowMs: number): BeginResult => {
      const row = find.get(scope, key);
      if (row && row.expires_ms > nowMs) {
        if (row.fingerprint !== fingerprint) return { kind: 'conflict' };
        if (row.response !== null) return { kind: 'replay', response: JSON.parse(row.response) as StoredResponse };
        return { kind: 'in_progress' };
      }
      const token = randomUUID();
      lock.run(scope, key, fingerprint, token, nowMs + this.options.leaseMs, this.owner);
      return { kind: 'started', token };
    };
    this.completeStmt = db.prepare(
      'UPDATE idempotency_records SET response = ?, token = NULL, expires_ms = ? WHERE scope = ? AND key = ? AND token = ?',
    );
    this.releaseStmt = db.prepare('DELETE FROM idempotency_records WHERE scope = ? AND key = ? AND token = ?');
    this.forgetStmt = db.prepare('DELETE FROM idempotency_records WHERE scope = ?');
    this.renewStmt = db.prepare('UPDATE idempotency_records SET expires_ms = ? WHERE scope = ? AND key = ? AND token = ? AND response IS NULL');
    this.abandonedStmt = db.prepare('DELETE FROM idempotency_records WHERE response IS NULL AND owner IS NOT ?');
    this.purger = setInterval(() => void this.purgeExpired(now()).catch(() => undefined), PURGE_EVERY_MS);
    this.purger.unref();
  }

  /** Deletes every record expired at `nowMs`, a batch per statement; answers how many. */
  purgeExpired(nowMs: number): Promise<number> {
    return writeInGroup(this.db, () => {
      let purged = 0;
      for (let changes = PURGE_BATCH; changes === PURGE_BATCH; purged += changes) {
        changes = this.purgeStmt.run(nowMs, PURGE_BATCH).changes;
      }
      return purged;
    });
  }

  /**
   * A lock is answered before its commit: the request goes on in the same loop turn, and its first
   * write joins the lock's group instead of waiting a commit for it. The lock protects nothing once
   * this process dies (the embedded profile releases an earlier instance's locks at start), and
   * what the request acknowledges waits: `complete` waits for the lock's commit and fails if it
   * failed, so a request whose lock was lost answers an error, and its retry finds (by derived ids)
   * whatever of its writes did commit. Any other answer (replay, conflict, in progress) is given
   * once the group it read in is committed, as a write's would be.
   */
  begin(scope: string, key: string, fingerprint: string, nowMs: number): Promise<BeginResult> {
    let staged;
    try {
      staged = stageInGroup(this.db, () => this.beginNow(scope, key, fingerprint, nowMs), ONE_STATEMENT);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const begun = staged.value;
    if (begun.kind !== 'started') return staged.committed.then(() => begun);
    this.uncommittedLocks.set(begun.token, staged.committed);
    staged.committed.then(() => this.uncommittedLocks.delete(begun.token), () => undefined);
    return Promise.resolve(begun);
  }

  async complete(scope: string, key: string, token: string, response: StoredResponse, nowMs: number): Promise<void> {
    const lock = this.uncommittedLocks.get(token);
    if (lock) {
      this.uncommittedLocks.delete(token);
      await lock;
    }
    return writeInGroup(this.db, () => {
      this.completeStmt.run(JSON.stringify(response), nowMs + this.options.lifetimeMs, scope, key, token);
    }, ONE_STATEMENT);
  }

  release(scope: string, key: string, token: string): Promise<void> {
    // Lands in the lock's group or a later one: nothing to wait for (a lock whose commit failed has nothing to release).
    this.uncommittedLocks.delete(token);
    return writeInGroup(this.db, () => {
      this.releaseStmt.run(scope, key, token);
    }, ONE_STATEMENT);
  }

  forget(scope: string): Promise<void> {
    return writeInGroup(this.db, () => {
      this.forgetStmt.run(scope);
    }, ONE_STATEMENT);
  }

  renew(scope: string, key: string, token: string, nowMs: number): Promise<void> {
    return writeInGroup(this.db, () => {
      this.renewStmt.run(nowMs + this.options.leaseMs, scope, key, token);
    }, ONE_STATEMENT);
  }

  releaseAbandoned(): Promise<number> {
    return writeInGroup(this.db, () => this.abandonedStmt.run(this.owner).changes, ONE_STATEMENT);
  }

  close(): Promise<void> {
    clearInterval(this.purger);
    return Promise.resolve();
  }
}
