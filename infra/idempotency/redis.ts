import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import {
  type BeginResult,
  DEFAULT_IDEMPOTENCY,
  type IdempotencyOptions,
  type IdempotencyStore,
  type StoredResponse,
} from './port';

// Records are JSON: {f: fingerprint, t: lock token or false, o: the owning process instance (locks only),
// r: the stored response's JSON text (kept as text: cjson would turn an empty array into an object) or
// false, e: expiry ms}.
// Expiry is judged against the caller's clock (`now`); Redis's own TTL only collects garbage.
const BEGIN = `
local raw = redis.call('GET', KEYS[1])
local now = tonumber(ARGV[3])
if raw then
  local rec = cjson.decode(raw)
  if rec.e > now then
    if rec.f ~= ARGV[1] then return {'conflict'} end
    if rec.r then return {'replay', rec.r} end
    return {'in_progress'}
  end
end
redis.call('SET', KEYS[1], cjson.encode({f = ARGV[1], t = ARGV[2], o = ARGV[6], r = false, e = now + tonumber(ARGV[4])}), 'PX', ARGV[5])
return {'started'}
`;

const RENEW = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local rec = cjson.decode(raw)
if rec.t ~= ARGV[1] or rec.r then return 0 end
rec.e = tonumber(ARGV[2])
redis.call('SET', KEYS[1], cjson.encode(rec), 'PX', ARGV[3])
return 1
`;

const COMPLETE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local rec = cjson.decode(raw)
if rec.t ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], cjson.encode({f = rec.f, t = false, r = ARGV[2], e = tonumber(ARGV[3])}), 'PX', ARGV[4])
return 1
`;

const RELEASE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
if cjson.decode(raw).t ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
`;

/** Shared by several processes, a lock cannot be released at start; it is kept short and renewed instead. */
export const REDIS_IDEMPOTENCY: IdempotencyOptions = { ...DEFAULT_IDEMPOTENCY, leaseMs: 3_000 };

/**
 * Idempotency records shared by every process: one Lua step per transition, so racing processes
 * agree. A lock's lease is short (3 s) and its request renews it while it runs, so the lock of a
 * process that died lapses within seconds.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly leaseMs: number;
  private readonly owner: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'billing:idem:',
    private readonly options: IdempotencyOptions = REDIS_IDEMPOTENCY,
  ) {
    this.leaseMs = options.leaseMs;
    this.owner = options.owner ?? randomUUID();
  }

  private key(scope: string, key: string): string {
    return `${this.prefix}${scope}:${key}`;
  }

  async begin(scope: string, key: string, fingerprint: string, nowMs: number): Promise<BeginResult> {
    const token = randomUUID();
    const [kind, response] = (await this.redis.eval(
      BEGIN,
      1,
      this.key(scope, key),
      fingerprint,
      token,
      nowMs,
      this.options.leaseMs,
      this.options.lifetimeMs + this.options.leaseMs,
      this.owner,
    )) as [string, string?];
    switch (kind) {
      case 'started':
        return { kind, token };
      case 'replay':
        return { kind, response: JSON.parse(response!) as StoredResponse };
      case 'conflict':
      case 'in_progress':
        return { kind };
      default:
        throw new Error(`unexpected idempotency answer ${kind}`);
    }
  }

  async renew(scope: string, key: string, token: string, nowMs: number): Promise<void> {
    await this.redis.eval(RENEW, 1, this.key(scope, key), token, nowMs + this.options.leaseMs, this.options.lifetimeMs + this.options.leaseMs);
  }

  /** Other processes may be running: their locks are never taken from them; a dead one's lapse within the lease. */
  releaseAbandoned(): Promise<number> {
    return Promise.resolve(0);
  }

  async complete(scope: string, key: string, token: string, response: StoredResponse, nowMs: number): Promise<void> {
    await this.redis.eval(
      COMPLETE,
      1,
      this.key(scope, key),
      token,
      JSON.stringify(response),
      nowMs + this.options.lifetimeMs,
      this.options.lifetimeMs + this.options.leaseMs,
    );
  }

  async release(scope: string, key: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(scope, key), token);
  }

  async forget(scope: string): Promise<void> {
    // Glob characters in a scope (an API key id: letters, digits, '_') cannot occur; SCAN, not KEYS, so Redis is never blocked.
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}${scope}:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
