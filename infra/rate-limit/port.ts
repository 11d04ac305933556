export type RateLimitDecision = Readonly<{
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until the oldest counted request stops counting. */
  resetSeconds: number;
  /** When refused: seconds until one more request would be allowed. */
  retryAfterSeconds: number | null;
}>;

/** A sliding-window log per key; every request is counted, refused ones too. */
export interface RateLimiter {
  readonly limit: number;
  hit(key: string, nowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export type RateLimitOptions = Readonly<{ limit: number; windowMs: number }>;

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 120, windowMs: 60_000 };

/** The decision from the window's timestamps (oldest first), this request included. */
export const decide = (timestamps: readonly number[], nowMs: number, options: RateLimitOptions): RateLimitDecision => {
  const count = timestamps.length;
  const allowed = count <= options.limit;
  const expiresIn = (index: number) => Math.max(0, Math.ceil((timestamps[index]! + options.windowMs - nowMs) / 1000));
  return {
    allowed,
    limit: options.limit,
    remaining: Math.max(options.limit - count, 0),
    resetSeconds: count > 0 ? expiresIn(0) : 0,
    // One more is allowed once the count drops below the limit: after the (count - limit)th oldest expires.
    retryAfterSeconds: allowed ? null : Math.max(1, expiresIn(count - options.limit)),
  };
};
