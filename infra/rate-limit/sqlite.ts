import type { SqliteDatabase } from '../sqlite/open-database';
import { settle } from '../sqlite/settle';
import { DEFAULT_RATE_LIMIT, decide, type RateLimitDecision, type RateLimiter, type RateLimitOptions } from './port';

/** The embedded rate limiter: one row per counted request, pruned as it slides out of the window. */
export class SqliteRateLimiter implements RateLimiter {
  private readonly hitTx;
  readonly limit: number;

  constructor(db: SqliteDatabase, private readonly options: RateLimitOptions = DEFAULT_RATE_LIMIT) {
    this.limit = options.limit;
    db.exec(`
      CREATE TABLE IF NOT EXISTS rate_limit_hits (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL,
        at_ms INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS rate_limit_hits_key_at ON rate_limit_hits (key, at_ms);
    `);
    const prune = db.prepare('DELETE FROM rate_limit_hits WHERE key = ? AND at_ms <= ?');
    const insert = db.prepare('INSERT INTO rate_limit_hits (key, at_ms) VALUES (?, ?)');
    const window = db.prepare<[string], { at_ms: number }>(
      'SELECT at_ms FROM rate_limit_hits WHERE key = ? ORDER BY at_ms, id',
    );
    this.hitTx = db.transaction((key: string, nowMs: number): RateLimitDecision => {
      prune.run(key, nowMs - this.options.windowMs);
      insert.run(key, nowMs);
      const times = window.all(key).map((row) => row.at_ms);
      const count = times.length;
      return decide(
        { count, oldestMs: times[0]!, pivotMs: count > this.options.limit ? times[count - this.options.limit]! : null },
        nowMs,
        this.options,
      );
    });
  }

  hit(key: string, nowMs: number): Promise<RateLimitDecision> {
    return settle(() => this.hitTx(key, nowMs));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
