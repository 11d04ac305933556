import { randomUUID } from 'node:crypto';
import { type EventStore, type StoredEvent, WrongExpectedRevision } from '../../infra/event-store/port';
import { testEvent, testMetadata } from '../support/events';

/** The event store port's contract; every adapter runs it. */
export const describeEventStore = (name: string, open: () => Promise<EventStore>): void => {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    // Streams are unique per test so runs against a shared server never collide.
    const stream = (): string => `contract-${randomUUID().replace(/-/g, '')}`;

    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('appends to a new stream and reads it back in order with data and metadata intact', async () => {
      const id = stream();
      const metadata = testMetadata({ requestId: 'req_1', actor: { type: 'api_key', id: 'key_1' }, requestFingerprint: 'f00d' });
      const result = await store.append(
        id,
        [
          { ...testEvent('Opened', { amount: '12.3400', nested: { list: [1, 2] } }), metadata },
          testEvent('Changed', { n: 2 }),
        ],
        'no_stream',
      );
      expect(result.nextExpectedRevision).toBe(1);
      const events = await store.readStream(id);
      expect(events.map((e) => [e.type, e.revision, e.streamId])).toEqual([
        ['Opened', 0, id],
        ['Changed', 1, id],
      ]);
      expect(events[0]?.data).toEqual({ amount: '12.3400', nested: { list: [1, 2] } });
      expect(events[0]?.metadata).toEqual(metadata);
      expect(events[1]!.position).toBeGreaterThan(events[0]!.position);
      expect(result.position).toBe(events[1]!.position);
    });

    it('reads an unknown stream as empty', async () => {
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('refuses a stale expected revision with the typed error and appends nothing', async () => {
      const id = stream();
      await store.append(id, [testEvent('A'), testEvent('B')], 'no_stream');
      await expect(store.append(id, [testEvent('C'), testEvent('D')], 0)).rejects.toBeInstanceOf(
        WrongExpectedRevision,
      );
      await expect(store.append(id, [testEvent('C')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B']);
      await store.append(id, [testEvent('C')], 1);
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    });

    it('refuses an expected revision on a stream that does not exist', async () => {
      const id = stream();
      await expect(store.append(id, [testEvent('A')], 0)).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(await store.readStream(id)).toEqual([]);
    });

    it('appends without a check when told any', async () => {
      const id = stream();
      await store.append(id, [testEvent('A')], 'any');
      await store.append(id, [testEvent('B')], 'any');
      expect((await store.readStream(id)).map((e) => e.revision)).toEqual([0, 1]);
    });

    it('reads a stream from a revision', async () => {
      const id = stream();
      await store.append(id, [testEvent('A'), testEvent('B'), testEvent('C')], 'no_stream');
      expect((await store.readStream(id, 1)).map((e) => e.type)).toEqual(['B', 'C']);
    });

    it('reads at most a limit of a stream’s events, from a revision', async () => {
      const id = stream();
      await store.append(id, [testEvent('A'), testEvent('B'), testEvent('C'), testEvent('D')], 'no_stream');
      const types = async (from: number, limit: number) => (await store.readStream(id, from, limit)).map((e) => e.type);
      expect(await types(0, 1)).toEqual(['A']);
      expect(await types(1, 2)).toEqual(['B', 'C']);
      expect(await types(2, 10)).toEqual(['C', 'D']);
      expect(await types(4, 1)).toEqual([]);
      expect(await store.readStream(stream(), 0, 1)).toEqual([]);
    });

    it('reads the events of some types of a stream, in order, as readStream gives them', async () => {
      const id = stream();
      const other = stream();
      await store.append(id, [testEvent('A', { n: 1 }), testEvent('B'), testEvent('C', { n: 3 })], 'no_stream');
      await store.append(other, [testEvent('A', { n: 9 })], 'no_stream');
      await store.append(id, [testEvent('A', { n: 4 })], 2);
      const full = await store.readStream(id);
      expect(await store.readStreamOfTypes(id, ['A', 'C'])).toEqual(full.filter((e) => e.type !== 'B'));
      expect(await store.readStreamOfTypes(id, ['Z'])).toEqual([]);
      expect(await store.readStreamOfTypes(stream(), ['A'])).toEqual([]);
    });

    it('reads a stream to fold as readStream does, from a revision, without what a fold does not need', async () => {
      const id = stream();
      await store.append(id, [testEvent('A', { n: 1 }), testEvent('B', { nested: { list: [2] } }), testEvent('C')], 'no_stream');
      const full = await store.readStream(id, 1);
      const folded = await store.readStreamToFold(id, 1);
      expect(folded.map(({ type, version, data, revision, position }) => ({ type, version, data, revision, position }))).toEqual(
        full.map(({ type, version, data, revision, position }) => ({ type, version, data, revision, position })),
      );
      expect(folded.map((e) => e.type)).toEqual(['B', 'C']);
      expect((await store.readStreamToFold(id, 0, 2)).map((e) => e.type)).toEqual(['A', 'B']);
      expect((await store.readStreamToFold(id, 2, 2)).map((e) => e.type)).toEqual(['C']);
      expect(await store.readStreamToFold(stream())).toEqual([]);
    });

    it('reads the global log after a position in commit order, in pages', async () => {
      const head = await store.headPosition();
      const a = stream();
      const b = stream();
      await store.append(a, [testEvent('A1')], 'no_stream');
      await store.append(b, [testEvent('B1'), testEvent('B2')], 'no_stream');
      await store.append(a, [testEvent('A2')], 0);
      const mine = (events: StoredEvent[]) => events.filter((e) => e.streamId === a || e.streamId === b);
      const all = mine(await store.readAll(head, 1000));
      expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'B2', 'A2']);
      const positions = all.map((e) => e.position);
      expect([...positions].sort((x, y) => (x < y ? -1 : 1))).toEqual(positions);
      expect(new Set(positions).size).toBe(4);
      const afterSecond = mine(await store.readAll(all[1]!.position, 1000));
      expect(afterSecond.map((e) => e.type)).toEqual(['B2', 'A2']);
      expect(await store.headPosition()).toBeGreaterThanOrEqual(all[3]!.position);
      const firstPage = await store.readAll(head, 2);
      expect(firstPage).toHaveLength(2);
    });

    it('tells listeners that events were appended, naming the stream', async () => {
      const id = stream();
      const heard = new Promise<void>((resolve) => {
        const off = store.onAppended((streamIds) => {
          // null (which streams is unknown: a subscription confirmed) concerns every stream, this one too; another stream's append does not.
          if (streamIds !== null && !streamIds.includes(id)) return;
          off();
          resolve();
        });
      });
      const announced: (readonly string[] | null)[] = [];
      const offAll = store.onAppended((streamIds) => announced.push(streamIds));
      await store.append(id, [testEvent('A'), testEvent('B')], 'no_stream');
      await expect(heard).resolves.toBeUndefined();
      offAll();
      // The appending process is told at once, before the append resolves, and names the stream.
      expect(announced.some((streamIds) => streamIds?.includes(id))).toBe(true);
    });

    it('knows a stream unchanged since a mark only until something is appended to it, where it keeps marks (else a reader always reads)', async () => {
      const [id, other] = [stream(), stream()];
      await store.append(id, [testEvent('A')], 'no_stream');
      if (!store.streamMark || !store.unchangedSince) {
        expect(store.streamMark).toBeUndefined();
        expect(store.unchangedSince).toBeUndefined();
        return;
      }
      const read = store.streamMark();
      expect(store.unchangedSince(id, read)).toBe(true);
      const appended = await store.append(id, [testEvent('B')], 0);
      expect(appended.mark).toBeDefined();
      expect(store.unchangedSince(id, read)).toBe(false);
      expect(store.unchangedSince(id, appended.mark!)).toBe(true);
      // Neither another stream's append nor a refused append changes it.
      await store.append(other, [testEvent('C')], 'no_stream');
      await expect(store.append(id, [testEvent('D')], 0)).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect(store.unchangedSince(id, appended.mark!)).toBe(true);
      await store.append(id, [testEvent('E')], 1);
      expect(store.unchangedSince(id, appended.mark!)).toBe(false);
    });

    it('ends 50 concurrent appenders retrying on conflicts with 50 events in order and no gap', async () => {
      const id = stream();
      const appendWithRetry = async (n: number): Promise<void> => {
        for (;;) {
          const events = await store.readStream(id);
          const expected = events.length === 0 ? 'no_stream' : events[events.length - 1]!.revision;
          try {
            await store.append(id, [testEvent('Counted', { n })], expected);
            return;
          } catch (error) {
            if (!(error instanceof WrongExpectedRevision)) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: 50 }, (_, n) => appendWithRetry(n)));
      const events = await store.readStream(id);
      expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(new Set(events.map((e) => (e.data as { n: number }).n)).size).toBe(50);
    });
  });
};
