import { setTimeout as sleep } from 'node:timers/promises';
import { EmbeddedLeases } from '../../infra/lease/embedded';
import type { Leases } from '../../infra/lease/port';
import { RedisLeases } from '../../infra/lease/redis';
import { whileLeased } from '../../infra/lease/while-leased';
import { silentLogger } from '../../infra/logger';
import { redisForTest, redisUrl } from '../support/redis';
import { until } from '../support/until';

type Opened = { leases: Leases; close: () => Promise<void> };

/** A holder's view of the leases that can be cut off, as a process that died: every call fails from then on. */
const killable = (leases: Leases) => {
  let dead = false;
  const view: Leases = {
    kind: leases.kind,
    acquire: (...args) => (dead ? Promise.reject(new Error('dead')) : leases.acquire(...args)),
    release: (...args) => (dead ? Promise.reject(new Error('dead')) : leases.release(...args)),
  };
  return { view, kill: () => (dead = true) };
};

const describeLeases = (name: string, open: () => Opened) =>
  describe(`Leases contract: ${name}`, () => {
    let opened: Opened;
    beforeEach(() => {
      opened = open();
    });
    afterEach(() => opened.close());

    it('has one holder at a time, who renews it', async () => {
      const { leases } = opened;
      expect(await leases.acquire('projections', 'a', 1_000)).toBe(true);
      expect(await leases.acquire('projections', 'b', 1_000)).toBe(false);
      expect(await leases.acquire('projections', 'a', 1_000)).toBe(true);
      expect(await leases.acquire('projections', 'b', 1_000)).toBe(false);
    });

    it('keeps names apart', async () => {
      expect(await opened.leases.acquire('poller', 'a', 1_000)).toBe(true);
      expect(await opened.leases.acquire('scheduler', 'b', 1_000)).toBe(true);
    });

    it('is released by its holder only', async () => {
      const { leases } = opened;
      await leases.acquire('poller', 'a', 5_000);
      await leases.release('poller', 'b');
      expect(await leases.acquire('poller', 'b', 5_000)).toBe(false);
      await leases.release('poller', 'a');
      expect(await leases.acquire('poller', 'b', 5_000)).toBe(true);
    });

    it('lapses when its holder stops renewing, and holds while it renews', async () => {
      const { leases } = opened;
      await leases.acquire('renewed', 'a', 150);
      await leases.acquire('abandoned', 'a', 150);
      for (let i = 0; i < 5; i++) {
        await sleep(60);
        expect(await leases.acquire('renewed', 'a', 150)).toBe(true);
        expect(await leases.acquire('renewed', 'b', 150)).toBe(false);
      }
      expect(await leases.acquire('abandoned', 'b', 150)).toBe(true);
    });

    it('lets exactly one of many racing holders take it', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => opened.leases.acquire('race', `h${i}`, 1_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('runs leased work in one holder at a time; another takes over when it stops, or when it dies', async () => {
      const running = new Set<string>();
      let overlap = false;
      const work = (id: string) => ({
        start: () => {
          running.add(id);
          if (running.size > 1) overlap = true;
        },
        stop: () => {
          running.delete(id);
        },
      });
      const options = { logger: silentLogger(), ttlMs: 300 };
      const first = killable(opened.leases);
      const a = whileLeased(first.view, 'follower', 'a', work('a'), options);
      await a.ready;
      const b = whileLeased(opened.leases, 'follower', 'b', work('b'), options);
      await b.ready;
      expect([a.held(), b.held()]).toEqual([true, false]);
      await sleep(500);
      expect([...running]).toEqual(['a']);

      // Dies: no more renewals, and its lease lapses; it stops its own work when it can no longer renew in time.
      first.kill();
      await until('the other holder takes over', () => b.held(), 2_000);
      expect([...running]).toEqual(['b']);
      expect(a.held()).toBe(false);

      const c = whileLeased(opened.leases, 'follower', 'c', work('c'), options);
      await c.ready;
      expect(c.held()).toBe(false);
      // Stopped: the lease is released at once.
      await b.stop();
      await until('the third holder takes over', () => c.held(), 1_000);
      expect([...running]).toEqual(['c']);
      expect(overlap).toBe(false);
      await Promise.all([a.stop(), c.stop()]);
      expect(running.size).toBe(0);
    });
  });

describeLeases('embedded', () => ({ leases: new EmbeddedLeases(), close: () => Promise.resolve() }));

if (redisUrl) {
  describeLeases('redis', () => {
    const opened = redisForTest();
    return { leases: new RedisLeases(opened.redis, opened.prefix), close: opened.cleanup };
  });
} else {
  describe.skip('Leases contract: redis (skipped: REDIS_URL not set)', () => {
    it('runs against Redis when REDIS_URL is set', () => undefined);
  });
}
