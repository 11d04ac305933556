import { randomUUID } from 'node:crypto';
import type { Condition, ReadStore } from '../../infra/read-store/port';
import { UnknownCursor } from '../../infra/read-store/unknown-cursor';

type Item = { id: string; created: string; org: string; status: string; email: string | null; live: boolean };

/** The read store port's contract; every adapter runs it. */
export const describeReadStore = (name: string, open: () => Promise<ReadStore>): void => {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    let collection: string;
    let org: string;
    const item = (n: number, overrides: Partial<Item> = {}): Item => ({
      id: `item_${String(n).padStart(3, '0')}`,
      created: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
      org,
      status: n % 2 === 0 ? 'active' : 'inactive',
      email: `User${n}@Example.com`,
      live: n % 3 !== 0,
      ...overrides,
    });
    const put = (docs: Item[]) => store.commit(docs.map((doc) => ({ op: 'put', collection, doc })));

    beforeEach(async () => {
      store = await open();
      // Unique names keep runs against a shared server apart.
      collection = `c_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      org = `org_${randomUUID().slice(0, 8)}`;
      await store.ensureIndexes([{ collection, fields: ['org', 'created'] }]);
    });
    afterEach(async () => {
      await store.close();
    });

    it('puts, replaces, gets and deletes documents', async () => {
      await put([item(1)]);
      expect(await store.get(collection, 'item_001')).toEqual(item(1));
      await put([item(1, { status: 'changed' })]);
      expect((await store.get<Item>(collection, 'item_001'))?.status).toBe('changed');
      await store.commit([{ op: 'delete', collection, id: 'item_001' }]);
      expect(await store.get(collection, 'item_001')).toBeNull();
      expect(await store.get(collection, 'missing')).toBeNull();
    });

    it('gets many documents by id in one call: those that exist, each once', async () => {
      await put([item(1), item(2), item(3)]);
      const found = await store.getMany<Item>(collection, ['item_003', 'item_404', 'item_001', 'item_003']);
      expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual([item(1), item(3)]);
      expect(await store.getMany(collection, [])).toEqual([]);
      expect(await store.getMany(`${collection}_never_written`, ['item_001'])).toEqual([]);
    });

    it('deletes every document whose field has a value, in order with the writes around it', async () => {
      await put([item(1), item(2, { org: 'org_other' }), item(3)]);
      await store.commit([
        { op: 'deleteWhere', collection, field: 'org', eq: org },
        { op: 'put', collection, doc: item(4) },
      ]);
      expect((await store.findAll<Item>(collection)).map((doc) => doc.id)).toEqual(['item_002', 'item_004']);
    });

    it('deletes the documents whose field has a value a few at a time, saying how many went', async () => {
      await put([item(1), item(2, { org: 'org_other' }), item(3), item(4), item(5)]);
      const steps: number[] = [];
      for (let deleted = -1; deleted !== 0; ) steps.push((deleted = await store.deleteSomeWhere(collection, 'org', org, 2)));
      expect(steps).toEqual([2, 2, 0]);
      expect((await store.findAll<Item>(collection)).map((doc) => doc.id)).toEqual(['item_002']);
    });

    it('reads a collection in id order a page at a time, with or without conditions', async () => {
      await put([5, 3, 1, 4, 2, 6].map((n) => item(n)));
      const ids = async (where: Parameters<ReadStore['findAll']>[1], page: Parameters<ReadStore['findAll']>[2]) =>
        (await store.findAll<Item>(collection, where, page)).map((d) => d.id);
      expect(await ids(undefined, { limit: 4 })).toEqual(['item_001', 'item_002', 'item_003', 'item_004']);
      expect(await ids(undefined, { after: 'item_004', limit: 4 })).toEqual(['item_005', 'item_006']);
      // After an id no document has: from its place in the order.
      expect(await ids(undefined, { after: 'item_0025', limit: 2 })).toEqual(['item_003', 'item_004']);
      expect(await ids(undefined, { after: 'item_006', limit: 4 })).toEqual([]);
      expect(await ids([{ field: 'status', eq: 'active' }], { after: 'item_002', limit: 1 })).toEqual(['item_004']);
    });

    it('finds with equality, membership, case-insensitive equality, at-most, null and booleans', async () => {
      await put([1, 2, 3, 4, 5, 6].map((n) => item(n)));
      await put([item(7, { email: null })]);
      const ids = async (where: Parameters<ReadStore['findAll']>[1]) =>
        (await store.findAll<Item>(collection, where)).map((d) => d.id);
      expect(await ids([{ field: 'status', eq: 'active' }])).toEqual(['item_002', 'item_004', 'item_006']);
      expect(await ids([{ field: 'id', in: ['item_001', 'item_005', 'nope'] }])).toEqual(['item_001', 'item_005']);
      expect(await ids([{ field: 'email', ieq: 'user3@EXAMPLE.COM' }])).toEqual(['item_003']);
      expect(await ids([{ field: 'email', eq: null }])).toEqual(['item_007']);
      expect(await ids([{ field: 'live', eq: false }])).toEqual(['item_003', 'item_006']);
      expect(await ids([{ field: 'status', in: [] }])).toEqual([]);
      expect(await ids([{ field: 'created', lte: '2026-01-01T00:00:02.000Z' }])).toEqual(['item_001', 'item_002']);
      expect(await ids([{ field: 'email', lte: 'User2' }])).toEqual(['item_001']);
      expect(await store.count(collection, [{ field: 'org', eq: org }, { field: 'status', eq: 'inactive' }])).toBe(4);
    });

    it('pages newest first with a stable tie-break on id', async () => {
      // Items 1 and 61 share a created time; the larger id comes first.
      await put([item(1), item(2), item(3), item(61), item(4)]);
      const all: string[] = [];
      let startingAfter: string | undefined;
      for (let page = 0; page < 5; page++) {
        const result = await store.find<Item>(collection, {
          where: [{ field: 'org', eq: org }],
          orderBy: 'created',
          limit: 2,
          ...(startingAfter ? { startingAfter } : {}),
        });
        all.push(...result.data.map((d) => d.id));
        if (!result.hasMore) break;
        startingAfter = result.data[result.data.length - 1]!.id;
      }
      expect(all).toEqual(['item_004', 'item_003', 'item_002', 'item_061', 'item_001']);
      const exact = await store.find(collection, { orderBy: 'created', limit: 5 });
      expect(exact.hasMore).toBe(false);
      expect(exact.data).toHaveLength(5);
    });

    it('combines filters with paging, continuing after a cursor that no longer meets the filter: a cursor is a position', async () => {
      await put([1, 2, 3, 4, 5, 6].map((n) => item(n)));
      const active = (page: { limit: number; startingAfter?: string; cursorWhere?: Condition[] }) =>
        store.find<Item>(collection, { where: [{ field: 'status', in: ['active'] }], orderBy: 'created', ...page });
      const first = await active({ limit: 2 });
      expect(first.data.map((d) => d.id)).toEqual(['item_006', 'item_004']);
      expect(first.hasMore).toBe(true);
      const second = await active({ limit: 2, startingAfter: 'item_004' });
      expect(second.data.map((d) => d.id)).toEqual(['item_002']);
      expect(second.hasMore).toBe(false);
      // item_005 is inactive: the page goes on from its place in the order, among the active ones.
      const fromInactive = await active({ limit: 5, startingAfter: 'item_005', cursorWhere: [{ field: 'org', eq: org }] });
      expect(fromInactive.data.map((d) => d.id)).toEqual(['item_004', 'item_002']);
      expect(fromInactive.hasMore).toBe(false);
    });

    it('refuses a cursor that is not in the collection or does not meet cursorWhere', async () => {
      await put([item(1), item(2)]);
      await expect(
        store.find(collection, { orderBy: 'created', limit: 2, startingAfter: 'item_999' }),
      ).rejects.toBeInstanceOf(UnknownCursor);
      await expect(
        store.find(collection, {
          where: [{ field: 'org', eq: 'org_other' }],
          orderBy: 'created',
          limit: 2,
          startingAfter: 'item_001',
          cursorWhere: [{ field: 'org', eq: 'org_other' }],
        }),
      ).rejects.toBeInstanceOf(UnknownCursor);
    });

    it('moves a checkpoint together with the writes', async () => {
      const checkpointName = `cp_${collection}`;
      expect(await store.checkpoint(checkpointName)).toBe(0n);
      await store.commit([{ op: 'put', collection, doc: item(1) }], [{ name: checkpointName, position: 42n }]);
      expect(await store.checkpoint(checkpointName)).toBe(42n);
      expect(await store.get(collection, 'item_001')).not.toBeNull();
    });

    it('moves several checkpoints in one commit, new ones and known ones', async () => {
      const [first, second, third] = [1, 2, 3].map((n) => `cp_${collection}_${n}`);
      await store.commit([], [{ name: first!, position: 5n }]);
      await store.commit([{ op: 'put', collection, doc: item(1) }], [
        { name: first!, position: 9n },
        { name: second!, position: 7n },
        { name: third!, position: 123n },
      ]);
      expect([await store.checkpoint(first!), await store.checkpoint(second!), await store.checkpoint(third!)]).toEqual([9n, 7n, 123n]);
    });

    it('changes nothing, checkpoint included, when a batch fails', async () => {
      const checkpointName = `cp_${collection}`;
      await store.ensureIndexes([{ collection, fields: ['email'], unique: true }]);
      await store.commit([{ op: 'put', collection, doc: item(1) }], [{ name: checkpointName, position: 1n }]);
      await expect(
        store.commit(
          [
            { op: 'put', collection, doc: item(2) },
            { op: 'put', collection, doc: item(3, { email: item(1).email }) },
          ],
          [{ name: checkpointName, position: 2n }],
        ),
      ).rejects.toThrow();
      expect(await store.get(collection, 'item_002')).toBeNull();
      expect(await store.checkpoint(checkpointName)).toBe(1n);
    });

    it('drops secondary indexes, keeping the documents, and builds them again on demand', async () => {
      const unique = [{ collection, fields: ['email'], unique: true }];
      await store.ensureIndexes(unique);
      await store.commit([{ op: 'put', collection, doc: item(1) }]);
      await store.dropIndexes([collection, `${collection}_never_written`]);
      // Without the unique index a second document with the same email goes in.
      await store.commit([{ op: 'put', collection, doc: item(2, { email: item(1).email }) }]);
      expect(await store.count(collection, [{ field: 'email', eq: item(1).email }])).toBe(2);
      // Built again over documents that break it: refused, as a rebuild that produced duplicates must fail.
      await expect(store.ensureIndexes(unique)).rejects.toThrow();
      await store.commit([{ op: 'delete', collection, id: 'item_002' }]);
      await store.ensureIndexes(unique);
      await expect(store.commit([{ op: 'put', collection, doc: item(3, { email: item(1).email }) }])).rejects.toThrow();
      expect(await store.get(collection, 'item_001')).not.toBeNull();
    });

    it('resets collections and checkpoints for a rebuild', async () => {
      const checkpointName = `cp_${collection}`;
      await store.commit([{ op: 'put', collection, doc: item(1) }], [{ name: checkpointName, position: 9n }]);
      await store.reset([collection], [checkpointName]);
      expect(await store.count(collection)).toBe(0);
      expect(await store.checkpoint(checkpointName)).toBe(0n);
    });

    it('drops collections, documents and indexes, and skips a missing one; a dropped collection is written and read again', async () => {
      const other = `${collection}_kept`;
      await store.ensureIndexes([{ collection, fields: ['email'], unique: true }]);
      await store.commit([
        { op: 'put', collection, doc: item(1) },
        { op: 'put', collection, doc: item(2) },
        { op: 'put', collection: other, doc: item(1) },
      ]);
      await store.drop([collection, `${collection}_never_written`]);
      expect(await store.count(collection)).toBe(0);
      expect(await store.get(collection, 'item_001')).toBeNull();
      expect(await store.findAll(collection)).toEqual([]);
      // Only what was named: a collection whose name begins with it keeps its documents.
      expect(await store.findAll(other)).toEqual([item(1)]);
      // Its unique index went with it: the same email goes in twice.
      await store.commit([
        { op: 'put', collection, doc: item(3) },
        { op: 'put', collection, doc: item(4, { email: item(3).email }) },
      ]);
      expect(await store.get(collection, 'item_003')).toEqual(item(3));
      expect(await store.count(collection, [{ field: 'email', eq: item(3).email }])).toBe(2);
      await store.drop([]);
      expect(await store.count(collection)).toBe(2);
    });

    it('writes through a generation writer in the order sent: each commit read back once it resolves, held to the indexes made before it, and drops', async () => {
      const checkpointName = `cp_${collection}`;
      await store.ensureIndexes([{ collection, fields: ['email'], unique: true }]);
      const writer = store.generationWriter();
      try {
        // Sent together, applied in order: the second commit's deletion by field sees the first's documents.
        const first = writer.commit([
          { op: 'put', collection, doc: item(1) },
          { op: 'put_json', collection, id: 'item_002', json: JSON.stringify(item(2)), fields: { org: item(2).org, created: item(2).created, email: item(2).email } },
        ]);
        const second = writer.commit(
          [
            { op: 'deleteWhere', collection, field: 'org', eq: org },
            { op: 'put', collection, doc: item(3, { status: 'recreated' }) },
          ],
          [{ name: checkpointName, position: 7n }],
        );
        await first;
        await second;
        expect(await store.findAll(collection)).toEqual([item(3, { status: 'recreated' })]);
        expect(await store.checkpoint(checkpointName)).toBe(7n);
        await expect(store.commit([{ op: 'put', collection, doc: item(4, { email: item(3).email }) }])).rejects.toThrow();
        await expect(writer.commit([{ op: 'put', collection, doc: item(5, { email: item(3).email }) }])).rejects.toThrow();
        // A failed commit fails alone: the writer goes on.
        await writer.commit([{ op: 'put', collection, doc: item(6) }]);
        expect((await store.findAll<Item>(collection)).map((doc) => doc.id)).toEqual(['item_003', 'item_006']);
        // It drops what nothing reads any more, as the store does; the store reads and writes the name afresh.
        await writer.drop([collection]);
        expect(await store.findAll(collection)).toEqual([]);
        await store.commit([{ op: 'put', collection, doc: item(5, { email: item(3).email }) }]);
        expect(await store.findAll(collection)).toEqual([item(5, { email: item(3).email })]);
      } finally {
        await writer.close();
      }
    });
  });
};
