import { randomUUID } from 'node:crypto';
import { recordUsage, type UsageRequestEvent } from '../../commands/usage/record-usage';
import { subscriptionStream } from '../../domain/subscription/events';
import { recordedUsages, type UsageRecordedData, usageRecordedData, usageStream } from '../../domain/usage/events';
import { fixedClock } from '../../infra/clock/clock';
import { realClocks } from '../../infra/clock/clocks';
import type { EventStore } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { openDatabase } from '../../infra/sqlite/open-database';
import { testMetadata } from '../support/events';
import { handlerSpec, lookupsOf, specCaller } from '../support/handler-spec';
import { racingStore } from '../support/racing-store';
import { subscriptionCreatedData } from '../support/subscription-fixtures';

const meters = [
  { meterId: 'mtr_calls', meterCode: 'api_calls', name: 'API calls', model: 'per_unit' as const, price: '0.0015', includedUnits: 0, tiers: [], minimumUnits: 0, planMinimumUnits: 0 },
];
const created = (subscriptionId: string) => ({ type: 'SubscriptionCreated', data: subscriptionCreatedData({ subscriptionId, meters }) });
const org = { id: 'org_1', livemode: true };
const NOW = '2026-02-10T00:00:00.000Z';
const usage = (eventId: string, subscription = 'sub_1', quantity = '1'): UsageRequestEvent => ({ eventId, subscription, meterCode: 'api_calls', quantity, timestamp: undefined });
const stored = (eventId: string, quantity = '1.0000') => ({
  eventId,
  meterId: 'mtr_calls',
  meterCode: 'api_calls',
  quantity,
  timestamp: NOW,
  timestampSent: false,
  periodStart: '2026-02-01',
  periodEnd: '2026-03-01',
});
const recorded = (subscriptionId: string, ...events: ReturnType<typeof stored>[]) => ({ type: 'UsageRecorded', data: usageRecordedData(subscriptionId, 'org_1', NOW, events) });
const storedIdsOf = async (store: SqliteEventStore, subscriptionId = 'sub_1') =>
  (await store.readStream(usageStream(subscriptionId))).flatMap((e) => recordedUsages(e.data as UsageRecordedData).map((u) => u.eventId));
/** A fresh log holding these subscriptions. */
const logWith = async (...subscriptionIds: string[]) => {
  const store = new SqliteEventStore(openDatabase(':memory:'));
  for (const id of subscriptionIds) {
    await store.append(subscriptionStream(id), [{ id: randomUUID(), type: 'SubscriptionCreated', version: 1, data: created(id).data, metadata: testMetadata() }], 'no_stream');
  }
  return store;
};
/** What the handler uses: the store, a fixed clock, and lookups whose read models hold nothing yet. */
const depsOn = (store: EventStore) => ({ store, clocks: realClocks(fixedClock(new Date(NOW))), lookups: lookupsOf({}) });

describe('recordUsage: given streams, when a request, then new events', () => {
  // 'taken' is stored on sub_9 (its usage stream's revision 0); the lookup's fingerprints also name that event for 'a', which it does not hold.
  const onSub9 = [{ subscriptionId: 'sub_9', revision: 0 }];
  const spec = handlerSpec({ now: NOW, lookups: { usageEventHolders: new Map([['taken', onSub9], ['a', onSub9]]) } });
  const sub9Holds = { [subscriptionStream('sub_9')]: [created('sub_9')], [usageStream('sub_9')]: [recorded('sub_9', stored('taken'))] };

  it('appends one UsageRecorded per subscription named, holding its accepted events in the order sent', async () => {
    await spec
      .given({ ...sub9Holds, [subscriptionStream('sub_1')]: [created('sub_1')], [subscriptionStream('sub_2')]: [created('sub_2')], [usageStream('sub_2')]: [recorded('sub_2', stored('old'))] })
      .when((deps) => recordUsage(deps, specCaller, org, [usage('a', 'sub_1', '2'), usage('b', 'sub_2'), usage('old', 'sub_2'), usage('c', 'sub_1'), usage('taken', 'sub_1'), usage('x', 'sub_3')]))
      .then({
        [usageStream('sub_1')]: [recorded('sub_1', stored('a', '2.0000'), stored('c'))],
        [usageStream('sub_2')]: [recorded('sub_2', stored('b'))],
      });
  });

  it('refuses an id the lookup names on another subscription only when that subscription’s stream holds it', async () => {
    await spec
      .given({ ...sub9Holds, [subscriptionStream('sub_1')]: [created('sub_1')] })
      .when(async (deps) => {
        const { outcomes } = await recordUsage(deps, specCaller, org, [usage('a'), usage('taken')]);
        expect(outcomes).toEqual([{ status: 'created' }, { status: 'rejected', code: 'event_id_conflict' }]);
      })
      .then({ [usageStream('sub_1')]: [recorded('sub_1', stored('a'))] });
  });

  it('stores one event_id once per organisation within a request: on the first subscription it names', async () => {
    await spec
      .given({ [subscriptionStream('sub_1')]: [created('sub_1')], [subscriptionStream('sub_2')]: [created('sub_2')] })
      .when(async (deps) => {
        const { outcomes } = await recordUsage(deps, specCaller, org, [usage('a', 'sub_1'), usage('a', 'sub_2'), usage('b', 'sub_2')]);
        expect(outcomes).toEqual([{ status: 'created' }, { status: 'rejected', code: 'event_id_conflict' }, { status: 'created' }]);
      })
      .then({ [usageStream('sub_1')]: [recorded('sub_1', stored('a'))], [usageStream('sub_2')]: [recorded('sub_2', stored('b'))] });
  });

  it('appends nothing when nothing is accepted', async () => {
    await spec.given({ ...sub9Holds, [subscriptionStream('sub_1')]: [created('sub_1')] }).when((deps) => recordUsage(deps, specCaller, org, [usage('taken'), usage('y', 'sub_1', '-1')])).then({});
  });

  it('counts each event exactly once when overlapping requests race on one subscription (conflicts are decided again)', async () => {
    const store = await logWith('sub_1');
    const deps = depsOn(store);
    const ids = Array.from({ length: 30 }, (_, i) => `e${i}`);
    const requests = [ids.slice(0, 20), ids.slice(10, 30), ids.slice(5, 25), ids];
    const answers = await Promise.all(requests.map((batch) => recordUsage(deps, specCaller, org, batch.map((id) => usage(id)))));
    expect((await storedIdsOf(store)).sort()).toEqual([...ids].sort());
    expect(answers.flatMap((a) => a.outcomes).filter((o) => o.status === 'created')).toHaveLength(30);
    await store.close();
  });

  it('stores one event_id once per organisation when concurrent requests name it on different subscriptions before the read models hold either', async () => {
    const store = await logWith('sub_1', 'sub_2');
    // The read models have seen neither request yet, as while both are in flight.
    const deps = depsOn(store);
    const ids = Array.from({ length: 20 }, (_, i) => `e${i}`);
    const requests = [ids.map((id) => usage(id, 'sub_1')), ids.map((id) => usage(id, 'sub_2')), ids.slice(5, 15).map((id) => usage(id, 'sub_1'))];
    const answers = await Promise.all(requests.map((batch) => recordUsage(deps, specCaller, org, batch)));
    const everyStored = [...(await storedIdsOf(store, 'sub_1')), ...(await storedIdsOf(store, 'sub_2'))];
    expect(everyStored.sort()).toEqual([...ids].sort());
    const statuses = answers.flatMap((a) => a.outcomes.map((o) => (o.status === 'rejected' ? o.code : o.status)));
    expect(statuses.filter((s) => s === 'created')).toHaveLength(20);
    expect(statuses.filter((s) => s === 'event_id_conflict')).toHaveLength(20);
    await store.close();
  });

  it('frees the ids of an append that failed for another subscription to store', async () => {
    const store = await logWith('sub_1', 'sub_2');
    const { store: failing, beforeNextAppend } = racingStore(store);
    const deps = depsOn(failing);
    beforeNextAppend(() => Promise.reject(new Error('disk full')));
    await expect(recordUsage(deps, specCaller, org, [usage('a', 'sub_1')])).rejects.toThrow('disk full');
    expect((await recordUsage(deps, specCaller, org, [usage('a', 'sub_2')])).outcomes).toEqual([{ status: 'created' }]);
    expect((await recordUsage(deps, specCaller, org, [usage('a', 'sub_1')])).outcomes).toEqual([{ status: 'rejected', code: 'event_id_conflict' }]);
    await store.close();
  });

  it('frees the ids a decision claimed when its append conflicts and the decision made again refuses them', async () => {
    const store = await logWith('sub_1', 'sub_2');
    const { store: racing, beforeNextAppend } = racingStore(store);
    const deps = depsOn(racing);
    // Another process bills sub_1's period between this request's decision and its append.
    const billed = { subscriptionId: 'sub_1', periodStart: '2026-02-01', periodEnd: '2026-03-01', invoiceId: null, billedAt: NOW, meters: [] };
    beforeNextAppend(() => store.append(usageStream('sub_1'), [{ id: randomUUID(), type: 'UsagePeriodBilled', version: 1, data: billed, metadata: testMetadata() }], 'any'));
    expect((await recordUsage(deps, specCaller, org, [usage('a', 'sub_1')])).outcomes).toEqual([{ status: 'rejected', code: 'timestamp_out_of_period' }]);
    expect((await recordUsage(deps, specCaller, org, [usage('a', 'sub_2')])).outcomes).toEqual([{ status: 'created' }]);
    await store.close();
  });

  it('keeps the usage state between requests, reading only what another process appended since, and decides again after losing a race', async () => {
    const store = await logWith('sub_1');
    const appendFromElsewhere = (eventId: string, quantity: string) =>
      store.append(usageStream('sub_1'), [{ id: randomUUID(), type: 'UsageRecorded', version: 2, data: recorded('sub_1', stored(eventId, quantity)).data, metadata: testMetadata() }], 'any');
    const { store: racing, beforeNextAppend } = racingStore(store);
    const deps = depsOn(racing);
    const outcomes = async (events: UsageRequestEvent[]) => (await recordUsage(deps, specCaller, org, events)).outcomes.map((o) => (o.status === 'rejected' ? o.code : o.status));

    expect(await outcomes([usage('a')])).toEqual(['created']);
    // Another process stores b after this one kept the stream folded: the next load reads it.
    await appendFromElsewhere('b', '5.0000');
    expect(await outcomes([usage('b', 'sub_1', '5'), usage('a')])).toEqual(['duplicate', 'duplicate']);
    // Another process stores c between this one's load and its append: the append conflicts, and the
    // request is decided again on the state that includes c (and not on its own refused events).
    beforeNextAppend(() => appendFromElsewhere('c', '5.0000'));
    expect(await outcomes([usage('c', 'sub_1', '1'), usage('d')])).toEqual(['event_id_conflict', 'created']);
    expect(await outcomes([usage('d'), usage('c', 'sub_1', '5')])).toEqual(['duplicate', 'duplicate']);
    expect(await storedIdsOf(store)).toEqual(['a', 'b', 'c', 'd']);
    await store.close();
  });
});
