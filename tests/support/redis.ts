import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';

export const redisUrl = process.env.REDIS_URL;

/** A connection and a key prefix of this run's own, removed afterwards. */
export const redisForTest = () => {
  const redis = new Redis(redisUrl!, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const prefix = `test:${randomUUID()}:`;
  return {
    redis,
    prefix,
    cleanup: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
};
