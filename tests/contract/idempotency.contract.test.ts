import { join } from 'node:path';
import { DEFAULT_IDEMPOTENCY, type IdempotencyStore } from '../../infra/idempotency/port';
import { RedisIdempotencyStore } from '../../infra/idempotency/redis';
import { SqliteIdempotencyStore } from '../../infra/idempotency/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { redisForTest, redisUrl } from '../support/redis';
import { tempDir } from '../support/test-service';

type Opened = { store: IdempotencyStore; second: () => IdempotencyStore; close: () => Promise<void> };

const describeIdempotency = (name: string, open: () => Opened) =>
  describe(`IdempotencyStore contract: ${name}`, () => {
    let opened: Opened;
    const t0 = 1_700_000_000_000;
    const ok = { status: 201, body: { id: 'cus_1', tiers: [], nested: { list: [] } } };
    beforeEach(() => {
      opened = open();
    });
    afterEach(() => opened.close());

    it('starts, then replays the stored success exactly', async () => {
      const begun = await opened.store.begin('key_1', 'k', 'fp', t0);
      expect(begun.kind).toBe('started');
      if (begun.kind !== 'started') return;
      await opened.store.complete('key_1', 'k', begun.token, ok, t0);
      expect(await opened.store.begin('key_1', 'k', 'fp', t0 + 1000)).toEqual({ kind: 'replay', response: ok });
    });

    it('is a conflict for another request with the key, running or done', async () => {
      const begun = await opened.store.begin('key_1', 'k', 'fp', t0);
      expect(await opened.store.begin('key_1', 'k', 'other', t0)).toEqual({ kind: 'conflict' });
      if (begun.kind === 'started') await opened.store.complete('key_1', 'k', begun.token, ok, t0);
      expect(await opened.store.begin('key_1', 'k', 'other', t0)).toEqual({ kind: 'conflict' });
    });

    it('is in progress for the same request while the first runs', async () => {
      await opened.store.begin('key_1', 'k', 'fp', t0);
      expect(await opened.store.begin('key_1', 'k', 'fp', t0 + 10)).toEqual({ kind: 'in_progress' });
    });

    it('releases the key after a failure, for the holder only', async () => {
      const begun = await opened.store.begin('key_1', 'k', 'fp', t0);
      if (begun.kind !== 'started') throw new Error('not started');
      await opened.store.release('key_1', 'k', 'not-the-token');
      expect((await opened.store.begin('key_1', 'k', 'fp', t0)).kind).toBe('in_progress');
      await opened.store.complete('key_1', 'k', 'not-the-token', ok, t0);
      expect((await opened.store.begin('key_1', 'k', 'fp', t0)).kind).toBe('in_progress');
      await opened.store.release('key_1', 'k', begun.token);
      expect((await opened.store.begin('key_1', 'k', 'changed', t0)).kind).toBe('started');
    });

    it('forgets every record of one scope, successes and locks, and only of that scope', async () => {
      const begun = await opened.store.begin('key_1', 'done', 'fp', t0);
      if (begun.kind !== 'started') throw new Error('not started');
      await opened.store.complete('key_1', 'done', begun.token, ok, t0);
      await opened.store.begin('key_1', 'running', 'fp', t0);
      await opened.store.begin('key_10', 'done', 'fp', t0);
      await opened.store.forget('key_1');
      expect((await opened.store.begin('key_1', 'done', 'another request', t0 + 1)).kind).toBe('started');
      expect((await opened.store.begin('key_1', 'running', 'another request', t0 + 1)).kind).toBe('started');
      // key_10 starts with key_1: a prefix is not the scope.
      expect(await opened.store.begin('key_10', 'done', 'another request', t0 + 1)).toEqual({ kind: 'conflict' });
    });

    it('keeps scopes (API keys) apart', async () => {
      await opened.store.begin('key_1', 'k', 'fp', t0);
      expect((await opened.store.begin('key_2', 'k', 'other', t0)).kind).toBe('started');
    });

    it('forgets a crashed request’s lock after the lease, and a success after 24 hours', async () => {
      const lease = opened.store.leaseMs;
      await opened.store.begin('key_1', 'crashed', 'fp', t0);
      expect((await opened.store.begin('key_1', 'crashed', 'fp', t0 + lease - 1)).kind).toBe('in_progress');
      expect((await opened.store.begin('key_1', 'crashed', 'fp', t0 + lease + 1)).kind).toBe('started');
      const begun = await opened.store.begin('key_1', 'done', 'fp', t0);
      if (begun.kind !== 'started') throw new Error('not started');
      await opened.store.complete('key_1', 'done', begun.token, ok, t0);
      expect((await opened.store.begin('key_1', 'done', 'fp', t0 + 24 * 3600_000 - 1)).kind).toBe('replay');
      expect((await opened.store.begin('key_1', 'done', 'other', t0 + 24 * 3600_000 + 1)).kind).toBe('started');
    });

    it('keeps a running request’s lock while it is renewed, for the holder only', async () => {
      const lease = opened.store.leaseMs;
      const begun = await opened.store.begin('key_1', 'slow', 'fp', t0);
      if (begun.kind !== 'started') throw new Error('not started');
      await opened.store.renew('key_1', 'slow', 'not-the-token', t0 + lease - 10);
      await opened.store.renew('key_1', 'slow', begun.token, t0 + lease - 10);
      // One lease after the renewal, not after the start.
      expect((await opened.store.begin('key_1', 'slow', 'fp', t0 + 2 * lease - 20)).kind).toBe('in_progress');
      expect((await opened.store.begin('key_1', 'slow', 'fp', t0 + 2 * lease)).kind).toBe('started');
    });

    it('never renews a stored success into a lock', async () => {
      const begun = await opened.store.begin('key_1', 'k', 'fp', t0);
      if (begun.kind !== 'started') throw new Error('not started');
      await opened.store.complete('key_1', 'k', begun.token, ok, t0);
      await opened.store.renew('key_1', 'k', begun.token, t0 + 10);
      expect(await opened.store.begin('key_1', 'k', 'fp', t0 + 20)).toEqual({ kind: 'replay', response: ok });
    });

    it('lets exactly one of many racing requests (two connections) start', async () => {
      const other = opened.second();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? opened.store : other).begin('key_1', 'race', 'fp', t0)),
      );
      expect(results.filter((r) => r.kind === 'started')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'in_progress')).toHaveLength(19);
    });
  });

describe('SqliteIdempotencyStore: locks that die with their process', () => {
  it('releases at start every lock an earlier instance left, and only those', async () => {
    const file = join(tempDir('idem-owner'), 'billing.sqlite');
    const db = openDatabase(file);
    const t0 = Date.now();
    const before = new SqliteIdempotencyStore(db, { ...DEFAULT_IDEMPOTENCY, owner: 'instance-1' });
    await before.begin('key_1', 'interrupted', 'fp', t0);
    const finished = await before.begin('key_1', 'finished', 'fp', t0);
    if (finished.kind !== 'started') throw new Error('not started');
    await before.complete('key_1', 'finished', finished.token, { status: 201, body: {} }, t0);
    // The next instance (after a kill -9) on the same file.
    const after = new SqliteIdempotencyStore(db, { ...DEFAULT_IDEMPOTENCY, owner: 'instance-2' });
    const own = await after.begin('key_1', 'own', 'fp', t0);
    expect(await after.releaseAbandoned()).toBe(1);
    expect((await after.begin('key_1', 'interrupted', 'fp', t0 + 1)).kind).toBe('started');
    expect((await after.begin('key_1', 'finished', 'fp', t0 + 1)).kind).toBe('replay');
    expect(own.kind).toBe('started');
    expect((await after.begin('key_1', 'own', 'fp', t0 + 1)).kind).toBe('in_progress');
    db.close();
  });
});

describeIdempotency('sqlite', () => {
  const file = join(tempDir('idem'), 'billing.sqlite');
  const db = openDatabase(file);
  const extra: ReturnType<typeof openDatabase>[] = [];
  return {
    store: new SqliteIdempotencyStore(db),
    second: () => {
      const other = openDatabase(file);
      extra.push(other);
      return new SqliteIdempotencyStore(other);
    },
    close: () => {
      for (const other of extra) other.close();
      db.close();
      return Promise.resolve();
    },
  };
});

if (redisUrl) {
  describeIdempotency('redis', () => {
    const first = redisForTest();
    const extra: ReturnType<typeof redisForTest>[] = [];
    return {
      store: new RedisIdempotencyStore(first.redis, first.prefix),
      second: () => {
        const other = redisForTest();
        extra.push(other);
        return new RedisIdempotencyStore(other.redis, first.prefix);
      },
      close: async () => {
        for (const other of extra) other.redis.disconnect();
        await first.cleanup();
      },
    };
  });
} else {
  describe.skip('IdempotencyStore contract: redis (skipped: REDIS_URL not set)', () => {
    it('runs against Redis when REDIS_URL is set', () => undefined);
  });
}

describe('SqliteIdempotencyStore background purge', () => {
  const t0 = 1_700_000_000_000;
  const day = 24 * 3600_000;

  it('deletes every expired record (in batches, by the expiry index) and keeps live ones', async () => {
    const db = openDatabase(join(tempDir('idem-purge'), 'billing.sqlite'));
    const store = new SqliteIdempotencyStore(db);
    // 2,500 completed up to a day before the purge (expired), and one completed just now (live), one lock still held.
    const insert = db.prepare("INSERT INTO idempotency_records (scope, key, fingerprint, token, response, expires_ms) VALUES ('key_1', ?, 'fp', NULL, '{}', ?)");
    db.transaction(() => {
      for (let i = 0; i < 2500; i++) insert.run(`old-${i}`, t0 + i);
    })();
    const fresh = await store.begin('key_1', 'fresh', 'fp', t0 + day);
    if (fresh.kind === 'started') await store.complete('key_1', 'fresh', fresh.token, { status: 201, body: {} }, t0 + day);
    await store.begin('key_1', 'held', 'fp', t0 + day);
    const count = () => db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM idempotency_records').get()!.n;

    expect(await store.purgeExpired(t0 + day)).toBe(2500);
    expect(count()).toBe(2);
    expect((await store.begin('key_1', 'fresh', 'fp', t0 + day + 1)).kind).toBe('replay');
    expect((await store.begin('key_1', 'held', 'fp', t0 + day + 1)).kind).toBe('in_progress');
    expect(await store.purgeExpired(t0 + day)).toBe(0);
    await store.close();
    db.close();
  });
});
