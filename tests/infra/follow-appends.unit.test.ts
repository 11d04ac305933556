import { followAppends } from '../../infra/follow-appends';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testEvent } from '../support/events';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const until = async (done: () => boolean) => {
  for (let tries = 0; tries < 200 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('followAppends', () => {
  it('runs one pass after a loop turn of appends, however many committed in it, and none once stopped', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    let passes = 0;
    const following = followAppends(store, () => Promise.resolve(void passes++), () => undefined, 60_000);
    await Promise.all(['a', 'b', 'c'].map((stream) => store.append(stream, [testEvent('Noted')], 'any')));
    await nextTurn();
    await nextTurn();
    expect(passes).toBe(1);
    await following.stop();
    await store.append('d', [testEvent('Noted')], 'any');
    await nextTurn();
    await nextTurn();
    expect(passes).toBe(1);
    await store.close();
  });

  it('polls for appends it was not told of, and reports a failed pass without stopping', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const errors: unknown[] = [];
    let passes = 0;
    const following = followAppends(
      store,
      () => (++passes === 1 ? Promise.reject(new Error('read failed')) : Promise.resolve()),
      (error) => errors.push(error),
      5,
    );
    await until(() => passes >= 3);
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual([new Error('read failed')]);
    await following.stop();
    await store.close();
  });
});
