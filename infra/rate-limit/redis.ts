import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { DEFAULT_RATE_LIMIT, decide, type RateLimitDecision, type RateLimiter, type RateLimitOptions } from './port';

// One atomic step per request: drop what slid out, count this request, read the oldest and the pivot.
const HIT = `
local key, now, window, limit, member = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
local count = redis.call('ZCARD', key)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
local pivot = '-1'
if count > limit then pivot = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')[2] end
return {count, oldest, pivot}
`;

/** The rate limiter shared by every process of the production profile: a sorted set per key. */
export class RedisRateLimiter implements RateLimiter {
  readonly limit: number;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'billing:ratelimit:',
    private readonly options: RateLimitOptions = DEFAULT_RATE_LIMIT,
  ) {
    this.limit = options.limit;
  }

  async hit(key: string, nowMs: number): Promise<RateLimitDecision> {
    const [count, oldest, pivot] = (await this.redis.eval(
      HIT,
      1,
      `${this.prefix}${key}`,
      nowMs,
      this.options.windowMs,
      this.options.limit,
      `${nowMs}:${randomUUID()}`,
    )) as [number, string, string];
    return decide({ count, oldestMs: Number(oldest), pivotMs: pivot === '-1' ? null : Number(pivot) }, nowMs, this.options);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
