import type { StoredEvent } from '../../infra/event-store/port';
import type { Doc, GenerationWriter, Write } from '../../infra/read-store/port';
import { generationReplay } from '../../projections/engine/generation-replay';
import type { Projection } from '../../projections/engine/projection';
import { testEvent } from '../support/events';

type Count = { id: string; count: number };

/** Counts each name it is given: every put reads the document the event before it left. */
const counts: Projection = {
  name: 'counts',
  version: 1,
  collections: ['counts'],
  indexes: [],
  handles: ['OrganisationSettingsChanged'],
  apply: async (event, context) => {
    const { name } = (event.data as { changes: { name: string } }).changes;
    const doc = await context.get<Count>('counts', name);
    context.put('counts', { id: name, count: (doc?.count ?? 0) + 1 });
  },
};

const logOf = (names: string[]): StoredEvent[] =>
  names.map((name, i) => ({
    ...testEvent('OrganisationSettingsChanged', { organisationId: 'org_1', changes: { name } }),
    streamId: 'organisation-org_1',
    revision: i,
    position: BigInt(i + 1),
  }));

/** A generation in memory whose commits land only when the test lets them. */
const heldWriter = () => {
  const stored = new Map<string, Doc>();
  const held: { writes: readonly Write[]; land: () => void }[] = [];
  const writer: GenerationWriter = {
    commit: (writes) =>
      new Promise<void>((resolve) => {
        held.push({
          writes,
          land: () => {
            for (const write of writes) if (write.op === 'put_json') stored.set(write.id, JSON.parse(write.json) as Doc);
            resolve();
          },
        });
      }),
    drop: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const view = { get: <T extends Doc>(_collection: string, id: string) => Promise.resolve((stored.get(id) as T | undefined) ?? null) };
  return { writer, view, stored, held };
};

/** Whether the promise has settled once every pending callback has run. */
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
};

const replayOf = (names: string[], writer: GenerationWriter, view: ReturnType<typeof heldWriter>['view']) => {
  const log = logOf(names);
  return generationReplay({
    read: (after) => {
      const events = log.filter((event) => event.position > after).slice(0, 1);
      return Promise.resolve({ events, reached: events[0]?.position ?? after });
    },
    view,
    writer,
    projections: [counts],
    checkpoints: ['counts_g1'],
    indexed: new Map(),
    // Every event is a flush of its own.
    flushDocuments: 1,
    commitSize: 10,
    from: 0n,
  });
};

const puts = (writes: readonly Write[]) => writes.map((write) => write.op === 'put_json' && JSON.parse(write.json));

describe('a generation replay', () => {
  it('goes on while the flush before the last commits, reading through both, and waits for the older one after that', async () => {
    const { writer, view, stored, held } = heldWriter();
    const replay = replayOf(['a', 'a', 'a', 'a'], writer, view);
    // None of the flushes committed yet.
    expect(await replay.step()).toBe(1);
    expect(await replay.step()).toBe(1);
    expect(held).toHaveLength(2);
    // A third flush waits for the first commit, after its event was read through the two held ones.
    const third = replay.step();
    expect(await settled(third)).toBe(false);
    expect(held).toHaveLength(2);
    held[0]!.land();
    expect(await third).toBe(1);
    expect(held).toHaveLength(3);
    expect(held.map(({ writes }) => puts(writes))).toEqual([
      [{ id: 'a', count: 1 }],
      [{ id: 'a', count: 2 }],
      [{ id: 'a', count: 3 }],
    ]);
    // The last likewise waits for the second; `flushed` waits for every commit.
    const fourth = replay.step();
    expect(await settled(fourth)).toBe(false);
    held[1]!.land();
    expect(await fourth).toBe(1);
    const flushed = replay.flushed();
    expect(await settled(flushed)).toBe(false);
    held[2]!.land();
    expect(await settled(flushed)).toBe(false);
    for (const commit of held.slice(3)) commit.land();
    await flushed;
    expect(stored.get('a')).toEqual({ id: 'a', count: 4 });
    expect(replay.position()).toBe(4n);
  });

  it('reads a flush through until every flush before it has committed, whichever lands first', async () => {
    const { writer, view, held } = heldWriter();
    const replay = replayOf(['a', 'b', 'a'], writer, view);
    await replay.step();
    await replay.step();
    // The later flush lands first: the first one's document is still read through the flushes.
    held[1]!.land();
    await settled(Promise.resolve());
    const third = replay.step();
    // Its event applied, it waits for the first commit.
    expect(await settled(third)).toBe(false);
    held[0]!.land();
    await third;
    expect(puts(held[2]!.writes)).toEqual([{ id: 'a', count: 2 }]);
  });
});
