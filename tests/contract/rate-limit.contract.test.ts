import type { RateLimiter } from '../../infra/rate-limit/port';
import { RedisRateLimiter } from '../../infra/rate-limit/redis';
import { MemoryRateLimiter } from '../../infra/rate-limit/memory';
import { redisForTest, redisUrl } from '../support/redis';

type Opened = { limiter: RateLimiter; close: () => Promise<void> };

const describeRateLimiter = (name: string, open: () => Opened) =>
  describe(`RateLimiter contract: ${name}`, () => {
    let opened: Opened;
    const t0 = 1_700_000_000_000;
    beforeEach(() => {
      opened = open();
    });
    afterEach(() => opened.close());

    it('allows 120 in 60 s, counting down, and refuses the 121st with Retry-After', async () => {
      for (let i = 1; i <= 120; i++) {
        const decision = await opened.limiter.hit('k', t0 + i * 10);
        expect(decision).toMatchObject({ allowed: true, limit: 120, remaining: 120 - i });
      }
      const refused = await opened.limiter.hit('k', t0 + 1300);
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      // The first request (t0 + 10) expires at t0 + 60010: 58.71 s later → 59.
      expect(refused.retryAfterSeconds).toBe(59);
      expect(refused.resetSeconds).toBe(59);
    });

    it('counts refused requests, so they keep the window full', async () => {
      for (let i = 0; i < 120; i++) await opened.limiter.hit('k', t0);
      expect((await opened.limiter.hit('k', t0 + 30_000)).allowed).toBe(false);
      const afterFirstExpire = await opened.limiter.hit('k', t0 + 60_000);
      // The 120 at t0 have slid out; the refused one at +30 s and this one count.
      expect(afterFirstExpire).toMatchObject({ allowed: true, remaining: 118, resetSeconds: 30 });
    });

    it('slides: a request stops counting exactly 60 s after it was made', async () => {
      await opened.limiter.hit('k', t0);
      expect((await opened.limiter.hit('k', t0 + 59_999)).remaining).toBe(118);
      expect((await opened.limiter.hit('k', t0 + 60_000)).remaining).toBe(118);
    });

    it('keeps keys apart', async () => {
      for (let i = 0; i < 121; i++) await opened.limiter.hit('a', t0);
      expect((await opened.limiter.hit('a', t0)).allowed).toBe(false);
      expect(await opened.limiter.hit('b', t0)).toMatchObject({ allowed: true, remaining: 119 });
    });

    it('never lets a concurrent burst past the limit', async () => {
      const decisions = await Promise.all(Array.from({ length: 150 }, () => opened.limiter.hit('burst', t0)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    });
  });

describeRateLimiter('memory (embedded)', () => {
  const limiter = new MemoryRateLimiter();
  return { limiter, close: () => limiter.close() };
});

if (redisUrl) {
  describeRateLimiter('redis', () => {
    const { redis, prefix, cleanup } = redisForTest();
    return { limiter: new RedisRateLimiter(redis, prefix), close: cleanup };
  });
} else {
  describe.skip('RateLimiter contract: redis (skipped: REDIS_URL not set)', () => {
    it('runs against Redis when REDIS_URL is set', () => undefined);
  });
}
