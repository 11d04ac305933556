import { handleDecision, loadState } from '../../commands/plumbing/handle';
import { UsageStates } from '../../commands/plumbing/usage-states';
import { usageSnapshotOf } from '../../domain/usage/snapshot';
import { SqliteStateSnapshots } from '../../infra/state-snapshots/sqlite';
import { decideUsage, usageDecider } from '../../domain/usage/decider';
import { usageStream } from '../../domain/usage/events';
import { usageCalendar, type UsageSubscription } from '../../domain/usage/rules';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';

const NOW = '2026-02-10T00:00:00.000Z';
const CALLS = { meterId: 'mtr_calls', meterCode: 'api_calls', pricing: { model: 'per_unit', price: '0.0015', includedUnits: null, minimumUnits: 0, tiers: [] } } as const;
const subscription = (subscriptionId: string): UsageSubscription => ({
  subscriptionId,
  organisationId: 'org_1',
  status: 'active',
  startDate: '2026-01-01',
  lastUsageDate: null,
  interval: { unit: 'month', count: 1 },
  timezone: 'Europe/London',
  meters: [CALLS],
  prices: [{ until: null, meters: [CALLS] }],
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

  it('drops the least recently used streams past the stream limit by a tenth (at least one), down to the limit', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    const states = new UsageStates(store, { streams: 2, eventIds: 1000 });
    for (const sub of ['sub_a', 'sub_b', 'sub_c']) await record(store, states, sub, ids(sub, 2));
    expect(states.keptStreams()).toEqual(['sub_a', 'sub_b', 'sub_c'].map(usageStream));
    await record(store, states, 'sub_d', ids('sub_d', 2));
    expect(states.keptStreams()).toEqual(['sub_c', 'sub_d'].map(usageStream));
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

  describe('snapshots', () => {
    /** States of a log whose snapshots go to its SQLite file, every `everyEvents` events folded. */
    const snapshotted = (store: SqliteEventStore, db: ReturnType<typeof openDatabase>, everyEvents: number, idsRead?: (subscriptionId: string) => number) => {
      const states = new UsageStates(store);
      const errors: unknown[] = [];
      states.keepSnapshotsIn({ snapshots: new SqliteStateSnapshots(db), everyEvents, onError: (error) => errors.push(error) });
      if (idsRead) states.readIdsFrom((subscriptionId) => Promise.resolve(idsRead(subscriptionId)));
      return { states, errors };
    };
    const loadOf = (states: UsageStates) => states.exclusive('sub_a', async (source) => source.load());
    /** The stream's first events read by each `readStreamToFold` from now on. */
    const foldReads = (store: SqliteEventStore) => {
      const reads: [number | undefined, number | undefined][] = [];
      const read = store.readStreamToFold.bind(store);
      store.readStreamToFold = (streamId, from, limit) => {
        reads.push([from, limit]);
        return read(streamId, from, limit);
      };
      return reads;
    };

    it('reads a state lost back from its snapshot and folds only the events after it, keeping the ids the index has not read', async () => {
      const db = openDatabase(':memory:');
      const store = new SqliteEventStore(db);
      const writer = snapshotted(store, db, 3);
      // Five batches, each loaded then committed: the load of the fourth (revision 2 folded) snapshots revisions 0-2.
      for (let batch = 0; batch < 5; batch++) await record(store, writer.states, 'sub_a', ids(`b${batch}`, 2), String(batch + 1));
      expect(writer.errors).toEqual([]);
      const whole = (await loadState(store, usageStream('sub_a'), usageDecider)).state;

      // A restarted process whose index has read revisions 0-1: revision 2's ids come from the log, 3-4 are folded.
      const reads = foldReads(store);
      const restarted = snapshotted(store, db, 1000, () => 1);
      const loaded = await loadOf(restarted.states);
      expect(reads).toEqual([
        [2, 1],
        [2, 1],
        [3, 250],
      ]);
      expect(loaded.revision).toBe(4);
      expect(loaded.state.totals).toEqual(whole.totals);
      expect([...loaded.state.ids.seen.keys()]).toEqual([...ids('b2', 2), ...ids('b3', 2), ...ids('b4', 2)]);
      // It decides as the whole fold would: an id of revision 2 is a duplicate, one changed a conflict.
      expect((await record(store, restarted.states, 'sub_a', ['b2-0', 'b4-1', 'new'], '3')).result).toEqual(['duplicate', 'rejected', 'created']);
    });

    it('ignores a snapshot whose event the log does not hold there (another log), and folds from the start', async () => {
      const db = openDatabase(':memory:');
      const store = new SqliteEventStore(db);
      for (let batch = 0; batch < 3; batch++) await record(store, new UsageStates(store), 'sub_a', ids(`b${batch}`, 1));
      await new SqliteStateSnapshots(db).write(usageStream('sub_a'), { revision: 1, position: 999n, state: usageSnapshotOf(usageDecider.initialState()) });
      const reads = foldReads(store);
      const loaded = await loadOf(snapshotted(store, db, 1000).states);
      expect(reads).toEqual([
        [1, 1],
        [0, 250],
      ]);
      expect(loaded.state.ids.folded).toBe(3);
    });
  });
});
