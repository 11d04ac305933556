import { handleDecision } from '../../commands/handle';
import { UsageStates } from '../../commands/usage/usage-states';
import { decideUsage, usageDecider } from '../../domain/usage/decider';
import { usageStream } from '../../domain/usage/events';
import { usageCalendar, type UsageSubscription } from '../../domain/usage/rules';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';

const NOW = '2026-02-10T00:00:00.000Z';
const subscription = (subscriptionId: string): UsageSubscription => ({
  subscriptionId,
  organisationId: 'org_1',
  status: 'active',
  startDate: '2026-01-01',
  lastUsageDate: null,
  interval: { unit: 'month', count: 1 },
  timezone: 'Europe/London',
  meters: [{ meterId: 'mtr_calls', meterCode: 'api_calls' }],
});

/** One batch of `ids` for the subscription, decided on its kept state and appended: the outcome per id. */
const record = (store: SqliteEventStore, states: UsageStates, subscriptionId: string, ids: string[], quantity = '1') =>
  states.exclusive(subscriptionId, (source) =>
    handleDecision(
      store,
      usageStream(subscriptionId),
      usageDecider,
      (state) => {
        const sub = subscription(subscriptionId);
        const events = ids.map((eventId) => ({ eventId, meterCode: 'api_calls', quantity, timestamp: undefined }));
        const decision = decideUsage({ type: 'RecordUsage', organisationId: 'org_1', subscriptionId, subscription: sub, now: NOW, events, storedElsewhere: new Set(), storedHere: new Map(), calendar: usageCalendar(sub) }, state);
        return { events: decision.events, result: decision.outcomes.map((outcome) => outcome.status) };
      },
      testMetadata(),
      undefined,
      source,
    ),
  );

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, k) => `${prefix}-${k}`);

describe('UsageStates: the usage streams kept folded, bounded in streams and in event ids', () => {
  it('drops the least recently used streams past the event-id limit, never the one just used, and folds a dropped one whole, judging duplicates as before', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const states = new UsageStates(store, { streams: 10, eventIds: 150 });
    expect((await record(store, states, 'sub_a', ids('a', 100))).result).toEqual(Array(100).fill('created'));
    await record(store, states, 'sub_b', ids('b', 40));
    expect(states.keptStreams()).toEqual(['sub_a', 'sub_b'].map(usageStream));
    // 100 + 40 + 30 ids are over 150: sub_a, the least recently used, goes.
    await record(store, states, 'sub_c', ids('c', 30));
    expect(states.keptStreams()).toEqual(['sub_b', 'sub_c'].map(usageStream));
    // Folded whole again when next used: an id stored before is still a duplicate, a changed one a conflict.
    const again = await record(store, states, 'sub_a', ['a-0', 'a-99', 'a-new']);
    expect(again.result).toEqual(['duplicate', 'duplicate', 'created']);
    expect((await record(store, states, 'sub_a', ['a-1'], '2')).result).toEqual(['rejected']);
    // sub_a holds 101 ids: with it, only sub_c's 30 fit under 150.
    expect(states.keptStreams()).toEqual(['sub_c', 'sub_a'].map(usageStream));
    // A stream over the limit by itself is kept alone.
    await record(store, states, 'sub_d', ids('d', 160));
    expect(states.keptStreams()).toEqual([usageStream('sub_d')]);
  });

  it('drops the least recently used stream past the stream limit', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const states = new UsageStates(store, { streams: 2, eventIds: 1000 });
    for (const sub of ['sub_a', 'sub_b', 'sub_c']) await record(store, states, sub, ids(sub, 2));
    expect(states.keptStreams()).toEqual(['sub_b', 'sub_c'].map(usageStream));
  });

  it('keeps none of the ids it is told are found elsewhere, in a cold fold and in a kept state', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const writer = new UsageStates(store);
    for (const batch of ['a', 'b', 'c']) await record(store, writer, 'sub_a', ids(batch, 10));
    const loadKnowing = (states: UsageStates, revision: number) =>
      states.exclusive('sub_a', async (source) => {
        source.forgetIdsThrough(revision);
        return (await source.load()).state;
      });
    // Cold (a restarted process): the first two batches' ids are never kept.
    const cold = new UsageStates(store);
    const state = await loadKnowing(cold, 1);
    expect([...state.ids.seen.keys()]).toEqual(ids('c', 10));
    expect(cold.idsKept(usageStream('sub_a'))).toBe(10);
    // Kept: told more later, it drops them.
    expect(writer.idsKept(usageStream('sub_a'))).toBe(30);
    await loadKnowing(writer, 2);
    expect(writer.idsKept(usageStream('sub_a'))).toBe(0);
  });

  it('asks how far the id index has read before each holder runs: a load that is told nothing (billing) keeps none of those ids either', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    for (const batch of ['a', 'b']) await record(store, new UsageStates(store), 'sub_a', ids(batch, 10));
    const states = new UsageStates(store);
    const asked: string[] = [];
    states.readIdsFrom((subscriptionId) => {
      asked.push(subscriptionId);
      return Promise.resolve(0);
    });
    const state = await states.exclusive('sub_a', async (source) => (await source.load()).state);
    expect(asked).toEqual(['sub_a']);
    expect([...state.ids.seen.keys()]).toEqual(ids('b', 10));
  });
});
