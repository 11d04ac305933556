import { DEFAULT_RATE_LIMIT, decide, type RateLimitDecision, type RateLimiter, type RateLimitOptions } from './port';

/**
 * The embedded rate limiter: each key's request times in this process's memory. Counters are not
 * ledger data, so they stay out of the fsynced SQLite file (a commit per request cost as much as an
 * event append); the data directory lock makes this the only process serving the embedded profile,
 * and a restart forgets at most one window. Keys idle for a window are swept.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;
  readonly limit: number;

  constructor(private readonly options: RateLimitOptions = DEFAULT_RATE_LIMIT) {
    this.limit = options.limit;
    this.sweeper = setInterval(() => this.sweep(Date.now()), options.windowMs);
    this.sweeper.unref();
  }

  hit(key: string, nowMs: number): Promise<RateLimitDecision> {
    let times = this.windows.get(key);
    if (!times) {
      times = [];
      this.windows.set(key, times);
    }
    // Request times arrive in order, so the expired ones are a prefix (a clock set back keeps them in order too: inserted sorted).
    const expired = times.findIndex((at) => at > nowMs - this.options.windowMs);
    times.splice(0, expired === -1 ? times.length : expired);
    let at = times.length;
    while (at > 0 && times[at - 1]! > nowMs) at--;
    times.splice(at, 0, nowMs);
    const count = times.length;
    return Promise.resolve(
      decide({ count, oldestMs: times[0]!, pivotMs: count > this.options.limit ? times[count - this.options.limit]! : null }, nowMs, this.options),
    );
  }

  private sweep(nowMs: number): void {
    for (const [key, times] of this.windows) if (times[times.length - 1]! <= nowMs - this.options.windowMs) this.windows.delete(key);
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
    return Promise.resolve();
  }
}
