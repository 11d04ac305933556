import type Redis from 'ioredis';
import type { Leases } from './port';

// Take when free or ours (renewing), in one step, so racing processes agree.
const ACQUIRE = `
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Leases shared by every process on one Redis: a key per name holding its holder, with Redis's expiry as the lapse. */
export class RedisLeases implements Leases {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'billing:lease:',
  ) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(ACQUIRE, 1, `${this.prefix}${name}`, holder, ttlMs)) === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, `${this.prefix}${name}`, holder);
  }
}
