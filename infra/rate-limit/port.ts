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

/**
 * The decision once this request is counted: `count` requests in the window, the oldest made at
 * `oldestMs`, and `pivotMs` the time of the request whose expiry lets one more in (the
 * (count - limit)th oldest, 0-based; null while under the limit).
 */
export const decide = (
  window: { count: number; oldestMs: number; pivotMs: number | null },
  nowMs: number,
  options: RateLimitOptions,
): RateLimitDecision => {
  const allowed = window.count <= options.limit;
  const secondsUntilExpiry = (atMs: number) => Math.max(0, Math.ceil((atMs + options.windowMs - nowMs) / 1000));
  return {
    allowed,
    limit: options.limit,
    remaining: Math.max(options.limit - window.count, 0),
    resetSeconds: window.count > 0 ? secondsUntilExpiry(window.oldestMs) : 0,
    retryAfterSeconds: allowed || window.pivotMs === null ? null : Math.max(1, secondsUntilExpiry(window.pivotMs)),
  };
};
