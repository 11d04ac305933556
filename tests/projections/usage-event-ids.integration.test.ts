import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { usageRecordedData } from '../../domain/usage/events';
import type { EventStore } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { silentLogger } from '../../infra/logger';
import { openDatabase } from '../../infra/sqlite/open-database';
import { readSnapshot, writeSnapshot } from '../../projections/usage-ids/usage-event-id-snapshot';
import { UsageEventIdIndex } from '../../projections/usage-ids/usage-event-ids';
import { testEvent } from '../support/events';
import { tempDir } from '../support/test-service';

const NOW = '2026-02-10T00:00:00.000Z';
const recorded = (organisationId: string, subscriptionId: string, ...eventIds: string[]) => ({
  ...testEvent(
    'UsageRecorded',
    usageRecordedData(
      subscriptionId,
      organisationId,
      NOW,
      eventIds.map((eventId) => ({ eventId, meterId: 'mtr_calls', meterCode: 'api_calls', quantity: '1.0000', timestamp: NOW, timestampSent: false, periodStart: '2026-02-01', periodEnd: '2026-03-01' })),
    ),
  ),
  version: 2,
});
const reset = (organisationId: string) => testEvent('SandboxReset', { organisationId, generation: 1, copy: { settings: false, catalogue: false, customers: false, subscriptions: false } });

const openLog = (path: string) => new SqliteEventStore(openDatabase(path));
/** The batches the index names for each id, as `subscription@revision`, and the position its answer includes the log through. */
const subscriptionsHolding = async (index: UsageEventIdIndex, organisationId: string, eventIds: readonly string[]) => {
  const { holders, through } = await index.holdersOf(organisationId, 'sub_none', eventIds);
  return { candidates: new Map([...holders].map(([eventId, named]) => [eventId, named.map((h) => `${h.subscriptionId}@${h.revision}`)])), through };
};
/** What the index answers for these ids, once it has followed the log through `position`. */
const holdersOnceAt = async (index: UsageEventIdIndex, position: bigint, organisationId: string, eventIds: string[]) => {
  for (let tries = 0; tries < 200; tries++) {
    const answer = await subscriptionsHolding(index, organisationId, eventIds);
    if (answer.through >= position) return answer;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the index did not reach position ${position}`);
};

describe('usage event id index', () => {
  it('answers, from the log read at start, the subscriptions holding each id of the organisation, through the head', async () => {
    const store = openLog(':memory:');
    await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a', 'shared')], 'any');
    await store.append('usage-sub_2', [recorded('org_1', 'sub_2', 'b')], 'any');
    const { position } = await store.append('usage-sub_9', [recorded('org_2', 'sub_9', 'shared')], 'any');
    const index = new UsageEventIdIndex(store, silentLogger());

    expect(await subscriptionsHolding(index, 'org_1', ['a', 'b', 'shared', 'c'])).toEqual({
      candidates: new Map([['a', ['sub_1@0']], ['b', ['sub_2@0']], ['shared', ['sub_1@0']]]),
      through: position,
    });
    expect((await subscriptionsHolding(index, 'org_2', ['a', 'shared'])).candidates).toEqual(new Map([['shared', ['sub_9@0']]]));
    await index.stop();
    await store.close();
  });

  it('names the revision of the batch holding each id, and the last revision it read of the subscription asked about', async () => {
    const store = openLog(':memory:');
    await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a')], 'any');
    await store.append('usage-sub_2', [recorded('org_1', 'sub_2', 'b')], 'any');
    await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'c', 'd')], 'any');
    const index = new UsageEventIdIndex(store, silentLogger());

    const onSub1 = await index.holdersOf('org_1', 'sub_1', ['a', 'b', 'd', 'x']);
    expect(onSub1.holders).toEqual(
      new Map([
        ['a', [{ subscriptionId: 'sub_1', revision: 0 }]],
        ['b', [{ subscriptionId: 'sub_2', revision: 0 }]],
        ['d', [{ subscriptionId: 'sub_1', revision: 1 }]],
      ]),
    );
    expect(onSub1.readThrough).toBe(1);
    expect((await index.holdersOf('org_1', 'sub_2', [])).readThrough).toBe(0);
    expect((await index.holdersOf('org_1', 'sub_new', [])).readThrough).toBe(-1);
    await index.stop();
    await store.close();
  });

  it('follows what is appended after it started', async () => {
    const store = openLog(':memory:');
    const index = new UsageEventIdIndex(store, silentLogger());
    await index.start();
    expect((await subscriptionsHolding(index, 'org_1', ['a'])).candidates.size).toBe(0);
    const { position } = await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a')], 'any');
    expect((await holdersOnceAt(index, position, 'org_1', ['a'])).candidates).toEqual(new Map([['a', ['sub_1@0']]]));
    await index.stop();
    await store.close();
  });

  it('frees the ids of an organisation a sandbox reset emptied, and only those', async () => {
    const store = openLog(':memory:');
    const index = new UsageEventIdIndex(store, silentLogger());
    await store.append('usage-sub_1', [recorded('org_sbx', 'sub_1', 'a', 'b')], 'any');
    await store.append('usage-sub_9', [recorded('org_live', 'sub_9', 'a')], 'any');
    await index.start();
    await store.append('organisation-org_sbx', [reset('org_sbx')], 'any');
    const { position } = await store.append('usage-sub_2', [recorded('org_sbx', 'sub_2', 'b')], 'any');

    expect((await holdersOnceAt(index, position, 'org_sbx', ['a', 'b'])).candidates).toEqual(new Map([['b', ['sub_2@0']]]));
    expect((await subscriptionsHolding(index, 'org_live', ['a'])).candidates).toEqual(new Map([['a', ['sub_9@0']]]));
    // Asked about the emptied subscription itself, its stream's own ids are named (they are still its).
    expect((await index.holdersOf('org_sbx', 'sub_1', ['a'])).holders).toEqual(new Map([['a', [{ subscriptionId: 'sub_1', revision: 0 }]]]));
    await index.stop();
    await store.close();
  });

  it('answers the same after a restart: a new index reads the ids back from the log file', async () => {
    const path = join(tempDir('usage-event-ids'), 'billing.sqlite');
    const store = openLog(path);
    const first = new UsageEventIdIndex(store, silentLogger());
    await first.start();
    await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a')], 'any');
    const { position } = await store.append('usage-sub_2', [recorded('org_1', 'sub_2', 'b')], 'any');
    const before = await holdersOnceAt(first, position, 'org_1', ['a', 'b']);
    await first.stop();
    await store.close();

    const reopened = openLog(path);
    const second = new UsageEventIdIndex(reopened, silentLogger());
    expect(await subscriptionsHolding(second, 'org_1', ['a', 'b'])).toEqual(before);
    await second.stop();
    await reopened.close();
  });
});

describe('usage event id index snapshots', () => {
  /** The log read through a store that records where each `readAll` began. */
  const recording = (store: SqliteEventStore) => {
    const readsAfter: bigint[] = [];
    const readAll = store.readAll.bind(store);
    store.readAll = (after, limit) => {
      readsAfter.push(after);
      return readAll(after, limit);
    };
    return readsAfter;
  };
  const everyIds = 1_000_000;

  it('writes one at stop; a restart reads it and only the log after it, and answers as before (a reset included)', async () => {
    const dir = tempDir('usage-event-id-snapshot');
    const snapshot = { path: join(dir, 'usage-event-ids.snapshot'), everyIds };
    const store = openLog(join(dir, 'billing.sqlite'));
    await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a', 'b')], 'any');
    const { position: before } = await store.append('usage-sub_2', [recorded('org_sbx', 'sub_2', 'c')], 'any');
    const { position: snapshotAt } = await store.append('organisation-org_sbx', [reset('org_sbx')], 'any');
    const first = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    await first.start();
    await first.stop();
    const { position } = await store.append('usage-sub_3', [recorded('org_1', 'sub_3', 'd')], 'any');

    const readsAfter = recording(store);
    const second = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    expect(await subscriptionsHolding(second, 'org_1', ['a', 'b', 'd', 'x'])).toEqual({
      candidates: new Map([['a', ['sub_1@0']], ['b', ['sub_1@0']], ['d', ['sub_3@0']]]),
      through: position,
    });
    expect((await subscriptionsHolding(second, 'org_sbx', ['c'])).candidates.size).toBe(0);
    expect((await second.holdersOf('org_1', 'sub_1', [])).readThrough).toBe(0);
    // The event the snapshot ends at, checked (read from the event before it); then the log after it.
    expect(readsAfter.slice(0, 2)).toEqual([before, snapshotAt]);
    await second.stop();
    await store.close();
  });

  it('keeps the sandboxes’ generations in it: after a restart, a late batch of the generation before a reset still holds nothing', async () => {
    const dir = tempDir('usage-event-id-snapshot');
    const snapshot = { path: join(dir, 'usage-event-ids.snapshot'), everyIds };
    const store = openLog(join(dir, 'billing.sqlite'));
    await store.append('organisation-org_sbx', [reset('org_sbx')], 'any');
    const first = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    await first.start();
    await first.stop();
    expect((await readSnapshot(snapshot.path))!.generations).toEqual([['org_sbx', 1]]);
    // Decided by a process that read generation 0 before the reset, landing after it (and after the restart).
    const late = { ...recorded('org_sbx', 'sub_late', 'late-1'), metadata: { ...recorded('org_sbx', 'sub_late').metadata, livemode: false, organisationId: 'org_sbx', resetGeneration: 0 } };
    const { position } = await store.append('usage-sub_late', [late], 'any');
    const second = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    expect(await holdersOnceAt(second, position, 'org_sbx', ['late-1'])).toEqual({ candidates: new Map(), through: position });
    await second.stop();
    await store.close();
  });

  it('checks the event it ends at reading only from positions events are at (as EventStoreDB reads)', async () => {
    const dir = tempDir('usage-event-id-snapshot');
    const snapshot = { path: join(dir, 'usage-event-ids.snapshot'), everyIds };
    const store = openLog(join(dir, 'billing.sqlite'));
    for (const [subscription, id] of [['sub_1', 'a'], ['sub_2', 'b'], ['sub_1', 'c']] as const) {
      await store.append(`usage-${subscription}`, [recorded('org_1', subscription, id)], 'any');
    }
    // The log as EventStoreDB numbers it: positions far apart, and a read from one no event is at refused.
    const SPACING = 10n;
    const spaced: EventStore = {
      append: (streamId, events, expected) => store.append(streamId, events, expected),
      readStream: (streamId, from) => store.readStream(streamId, from),
      readStreamOfTypes: (streamId, types) => store.readStreamOfTypes(streamId, types),
      readStreamToFold: (streamId, from, limit) => store.readStreamToFold(streamId, from, limit),
      close: () => store.close(),
      readAll: async (after, limit) => {
        if (after % SPACING !== 0n) throw new Error(`no event at position ${after}`);
        return (await store.readAll(after / SPACING, limit)).map((event) => ({ ...event, position: event.position * SPACING }));
      },
      headPosition: async () => (await store.headPosition()) * SPACING,
      onAppended: (listener) => store.onAppended(listener),
    };
    const first = new UsageEventIdIndex(spaced, silentLogger(), { snapshot });
    await first.start();
    await first.stop();
    const warnings: unknown[] = [];
    const logger = { ...silentLogger(), warn: (...args: unknown[]) => void warnings.push(args) } as unknown as ReturnType<typeof silentLogger>;
    const second = new UsageEventIdIndex(spaced, logger, { snapshot });
    expect((await subscriptionsHolding(second, 'org_1', ['a', 'b', 'c'])).candidates).toEqual(new Map([['a', ['sub_1@0']], ['b', ['sub_2@0']], ['c', ['sub_1@1']]]));
    // Read from its snapshot: nothing ignored.
    expect(warnings).toEqual([]);
    await second.stop();
    // A snapshot from another log whose positions this one refuses to read from: ignored, the whole log read.
    const other = { ...(await readSnapshot(snapshot.path))!, before: 15n, position: 20n };
    await writeSnapshot(snapshot.path, other);
    const third = new UsageEventIdIndex(spaced, logger, { snapshot });
    expect((await subscriptionsHolding(third, 'org_1', ['a'])).candidates).toEqual(new Map([['a', ['sub_1@0']]]));
    expect(warnings).toEqual([[expect.objectContaining({ reason: 'no event at position 15' }), expect.stringMatching(/snapshot ignored/)]]);
    await third.stop();
    await store.close();
  });

  it('writes one as ids are added, once as many as `everyIds` are new', async () => {
    const dir = tempDir('usage-event-id-snapshot');
    const snapshot = { path: join(dir, 'usage-event-ids.snapshot'), everyIds: 3 };
    const store = openLog(join(dir, 'billing.sqlite'));
    const index = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    await index.start();
    await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a', 'b')], 'any');
    const { position } = await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'c')], 'any');
    await holdersOnceAt(index, position, 'org_1', ['a']);
    for (let tries = 0; tries < 200 && !(await readSnapshot(snapshot.path)); tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await readSnapshot(snapshot.path))?.position).toBe(position);
    await index.stop();
    await store.close();
  });

  it('reads the whole log when the snapshot does not end at an event the log holds, or is not whole', async () => {
    const dir = tempDir('usage-event-id-snapshot');
    const path = join(dir, 'usage-event-ids.snapshot');
    const other = openLog(':memory:');
    await other.append('usage-sub_9', [recorded('org_1', 'sub_9', 'x')], 'any');
    const fromOther = new UsageEventIdIndex(other, silentLogger(), { snapshot: { path, everyIds } });
    await fromOther.start();
    await fromOther.stop();
    await other.close();

    const store = openLog(join(dir, 'billing.sqlite'));
    const { position } = await store.append('usage-sub_1', [recorded('org_1', 'sub_1', 'a')], 'any');
    const answers = async () => {
      const index = new UsageEventIdIndex(store, silentLogger(), { snapshot: { path, everyIds } });
      const answer = await subscriptionsHolding(index, 'org_1', ['a', 'x']);
      await index.stop();
      return answer;
    };
    expect(await answers()).toEqual({ candidates: new Map([['a', ['sub_1@0']]]), through: position });

    // The last stop wrote this log's snapshot: cut short, it is not read.
    const whole = await readFile(path);
    await writeFile(path, whole.subarray(0, whole.length - 4));
    expect(await readSnapshot(path)).toBeNull();
    expect(await answers()).toEqual({ candidates: new Map([['a', ['sub_1@0']]]), through: position });
    await store.close();
  });
});

describe('usage event id index runs (ids written out past `sealIds`)', () => {
  const everyIds = 1_000_000;
  const runFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('usage-event-ids.snapshot.run-'));
  /** 40 appends of 3 ids over 4 subscriptions of two organisations; an id of org_1 sent again on another subscription. */
  const appendUsage = async (store: EventStore) => {
    let position = 0n;
    for (let n = 0; n < 40; n++) {
      const subscription = `sub_${n % 4}`;
      const ids = [`id-${n}-a`, `id-${n}-b`, n === 39 ? 'id-0-a' : `id-${n}-c`];
      ({ position } = await store.append(`usage-${subscription}`, [recorded(n % 4 === 3 ? 'org_2' : 'org_1', subscription, ...ids)], 'any'));
    }
    return position;
  };
  const asked = [...Array.from({ length: 40 }, (_, n) => [`id-${n}-a`, `id-${n}-b`, `id-${n}-c`]).flat(), 'never-sent'];

  it('answers as an index holding every id in memory, before and after a restart from its snapshot, in a few runs', async () => {
    const dir = tempDir('usage-event-id-runs');
    const snapshot = { path: join(dir, 'usage-event-ids.snapshot'), everyIds, sealIds: 5 };
    const store = openLog(join(dir, 'billing.sqlite'));
    const position = await appendUsage(store);
    const inMemory = new UsageEventIdIndex(store, silentLogger());
    const expected = await Promise.all(['org_1', 'org_2'].map((organisation) => subscriptionsHolding(inMemory, organisation, asked)));
    await inMemory.stop();
    expect([expected[0]!.candidates.get('id-0-a'), expected[1]!.candidates.get('id-0-a')]).toEqual([['sub_0@0'], ['sub_3@9']]);

    const first = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    await first.start();
    expect(await Promise.all(['org_1', 'org_2'].map((organisation) => subscriptionsHolding(first, organisation, asked)))).toEqual(expected);
    await first.stop();
    // 120 ids in runs of 5 merged as they come: a handful of runs of doubling sizes, not 24.
    expect(runFiles(dir).length).toBeGreaterThan(0);
    expect(runFiles(dir).length).toBeLessThanOrEqual(6);
    expect((await readSnapshot(snapshot.path))!.levels.runs.slice().sort()).toEqual(runFiles(dir).sort());

    const readsAfter: bigint[] = [];
    const readAll = store.readAll.bind(store);
    store.readAll = (after, limit) => {
      readsAfter.push(after);
      return readAll(after, limit);
    };
    const second = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    expect(await Promise.all(['org_1', 'org_2'].map((organisation) => subscriptionsHolding(second, organisation, asked)))).toEqual(expected);
    // From its snapshot: the log after it only.
    expect(readsAfter.at(-1)).toBe(position);
    await second.stop();
    await store.close();
  });

  it('frees the ids of a sandbox reset held in runs', async () => {
    const dir = tempDir('usage-event-id-runs');
    const store = openLog(join(dir, 'billing.sqlite'));
    await appendUsage(store);
    await store.append('organisation-org_2', [reset('org_2')], 'any');
    const { position } = await store.append('usage-sub_7', [recorded('org_2', 'sub_7', 'id-3-b')], 'any');
    const index = new UsageEventIdIndex(store, silentLogger(), { snapshot: { path: join(dir, 'usage-event-ids.snapshot'), everyIds, sealIds: 5 } });
    await index.start();
    // The ids read at start written out before the lookups: they read the runs.
    await index.settled();
    expect(runFiles(dir).length).toBeGreaterThan(0);

    expect(await holdersOnceAt(index, position, 'org_2', ['id-3-a', 'id-3-b'])).toEqual({ candidates: new Map([['id-3-b', ['sub_7@0']]]), through: position });
    expect((await subscriptionsHolding(index, 'org_1', ['id-0-b', 'id-1-c'])).candidates).toEqual(new Map([['id-0-b', ['sub_0@0']], ['id-1-c', ['sub_1@0']]]));
    await index.stop();
    await store.close();
  });

  it('reads the whole log when a run its snapshot names is missing, and deletes runs no snapshot names', async () => {
    const dir = tempDir('usage-event-id-runs');
    const snapshot = { path: join(dir, 'usage-event-ids.snapshot'), everyIds, sealIds: 5 };
    const store = openLog(join(dir, 'billing.sqlite'));
    const position = await appendUsage(store);
    const first = new UsageEventIdIndex(store, silentLogger(), { snapshot });
    const expected = await subscriptionsHolding(first, 'org_1', asked);
    await first.stop();
    const [lost] = (await readSnapshot(snapshot.path))!.levels.runs;
    unlinkSync(join(dir, lost!));
    writeFileSync(join(dir, 'usage-event-ids.snapshot.run-left-by-a-crash'), 'partial');

    const warnings: unknown[] = [];
    const logger = { ...silentLogger(), warn: (...args: unknown[]) => void warnings.push(args) } as unknown as ReturnType<typeof silentLogger>;
    const second = new UsageEventIdIndex(store, logger, { snapshot });
    expect(await subscriptionsHolding(second, 'org_1', asked)).toEqual({ ...expected, through: position });
    expect(warnings).toEqual([[expect.objectContaining({ reason: 'a run it names is missing or not whole' }), expect.stringMatching(/snapshot ignored/)]]);
    await second.stop();
    expect(runFiles(dir)).not.toContain('usage-event-ids.snapshot.run-left-by-a-crash');
    expect(runFiles(dir).sort()).toEqual((await readSnapshot(snapshot.path))!.levels.runs.slice().sort());
    await store.close();
  });
});
