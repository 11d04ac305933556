import { type AnyBulkWriteOperation, type ClientSession, type Db, type Document, type Filter, MongoClient } from 'mongodb';
import { assertCollection, assertField } from './names';
import type { Checkpoint, Condition, Doc, FindQuery, GenerationWriter, IdPage, IndexSpec, Page, ReadStore, Write } from './port';
import { UnknownCursor } from './unknown-cursor';

/** The document as put, plus its id as `_id` (the primary index), which is stripped on the way out. */
type Stored = Doc & { _id: string };
type CheckpointRow = { _id: string; position: string };
type Run = { collection: string; operations: AnyBulkWriteOperation<Stored>[] };

const CHECKPOINTS = 'projection_checkpoints';

const collectionName = (collection: string): string => `rm_${assertCollection(collection)}`;
const fieldName = (field: string): string => (field === 'id' ? '_id' : assertField(field));
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const toFilter = (conditions: readonly Condition[] = []): Filter<Stored> => {
  const and = conditions.map((condition): Document => {
    const field = fieldName(condition.field);
    // `null` matches a null or missing field, as json_extract(...) IS NULL does in SQLite.
    if ('eq' in condition) return { [field]: condition.eq };
    if ('in' in condition) return { [field]: { $in: [...condition.in] } };
    if ('lte' in condition) return { [field]: { $lte: condition.lte } };
    return { [field]: { $regex: `^${escapeRegex(condition.ieq)}$`, $options: 'i' } };
  });
  return and.length > 0 ? { $and: and } : {};
};

const valueAt = (doc: Document, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Document)[key] : undefined), doc);

const toStored = (doc: Doc): Stored => ({ _id: doc.id, ...doc });

const fromStored = <T extends Doc>(stored: Stored): T => {
  const { _id, ...doc } = stored;
  return doc as T;
};

/** Consecutive writes to one collection go in one ordered bulk write; the order of all writes is kept. */
const toRuns = (writes: readonly Write[]): Run[] => {
  const runs: Run[] = [];
  for (const write of writes) {
    let run = runs[runs.length - 1];
    if (!run || run.collection !== write.collection) {
      run = { collection: write.collection, operations: [] };
      runs.push(run);
    }
    if (write.op === 'delete') run.operations.push({ deleteOne: { filter: { _id: write.id } } });
    else if (write.op === 'deleteWhere') run.operations.push({ deleteMany: { filter: toFilter([{ field: write.field, eq: write.eq }]) } });
    else {
      const doc = write.op === 'put' ? write.doc : (JSON.parse(write.json) as Doc);
      run.operations.push({ replaceOne: { filter: { _id: doc.id }, replacement: toStored(doc), upsert: true } });
    }
  }
  return runs;
};

/** Read models in MongoDB: one collection per read model (`rm_…`), documents keyed by their id. */
export class MongoReadStore implements ReadStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly transactions: boolean,
  ) {}

  static async connect(url: string, dbName: string): Promise<MongoReadStore> {
    // Undefined fields are left out, as JSON.stringify does in the SQLite store, rather than stored as null.
    const client = await new MongoClient(url, { ignoreUndefined: true }).connect();
    try {
      const db = client.db(dbName);
      const hello = await db.admin().command({ hello: 1 });
      // Transactions need a replica set member (setName) or a mongos router; a standalone has neither.
      const transactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
      return new MongoReadStore(client, db, transactions);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  private coll(collection: string) {
    return this.db.collection<Stored>(collectionName(collection));
  }

  private checkpoints() {
    return this.db.collection<CheckpointRow>(CHECKPOINTS);
  }

  async ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    for (const index of indexes) {
      const keys = index.fields.map(fieldName);
      if (keys.length === 1 && keys[0] === '_id') continue;
      await this.coll(index.collection).createIndex(Object.fromEntries(keys.map((key) => [key, 1])), {
        unique: index.unique ?? false,
      });
    }
  }

  /** Whether the collection is on the server (one never written is not). */
  private exists(collection: string): Promise<boolean> {
    return this.db.listCollections({ name: collectionName(collection) }, { nameOnly: true }).hasNext();
  }

  async dropIndexes(collections: readonly string[]): Promise<void> {
    for (const collection of collections) {
      // Every index but `_id`'s; a collection never written has none (and dropping them would fail).
      if (await this.exists(collection)) await this.coll(collection).dropIndexes();
    }
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const stored = await this.coll(collection).findOne({ _id: id });
    return stored ? fromStored<T>(stored) : null;
  }

  async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const stored = await this.coll(collection).find({ _id: { $in: [...ids] } }).toArray();
    return stored.map((doc) => fromStored<T>(doc));
  }

  async find<T extends Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    const order = fieldName(query.orderBy);
    const filter = toFilter(query.where);
    let page = filter;
    if (query.startingAfter !== undefined) {
      const id = query.startingAfter;
      const start = await this.coll(collection).findOne({ $and: [toFilter(query.cursorWhere), { _id: id }] });
      if (!start) throw new UnknownCursor(id);
      // A missing field sorts as null; undefined would be dropped from the query instead.
      const value = valueAt(start, order) ?? null;
      page = { $and: [filter, { $or: [{ [order]: { $lt: value } }, { [order]: value, _id: { $lt: id } }] }] };
    }
    const rows = await this.coll(collection)
      .find(page)
      .sort({ [order]: -1, _id: -1 })
      .limit(query.limit + 1)
      .toArray();
    return { data: rows.slice(0, query.limit).map((row) => fromStored<T>(row)), hasMore: rows.length > query.limit };
  }

  async findAll<T extends Doc>(collection: string, where?: readonly Condition[], page?: IdPage): Promise<T[]> {
    const filter = page?.after === undefined ? toFilter(where) : { $and: [toFilter(where), { _id: { $gt: page.after } }] };
    const found = this.coll(collection).find(filter).sort({ _id: 1 });
    const rows = await (page ? found.limit(page.limit) : found).toArray();
    return rows.map((row) => fromStored<T>(row));
  }

  count(collection: string, where?: readonly Condition[]): Promise<number> {
    return this.coll(collection).countDocuments(toFilter(where));
  }

  async commit(writes: readonly Write[], checkpoints: readonly Checkpoint[] = []): Promise<void> {
    const runs = toRuns(writes);
    const apply = async (session?: ClientSession): Promise<void> => {
      for (const run of runs) await this.coll(run.collection).bulkWrite(run.operations, { ordered: true, session });
      for (const checkpoint of checkpoints) {
        await this.checkpoints().updateOne(
          { _id: checkpoint.name },
          { $set: { position: checkpoint.position.toString() } },
          { upsert: true, session },
        );
      }
    };
    if (!this.transactions) {
      // A standalone server has no transactions: the writes go in order, then the checkpoint. A
      // failure or crash part-way leaves the checkpoint behind, so the runner replays the batch.
      // Every put replaces the whole document with one computed from the events (absolute values,
      // not increments) and every delete is absolute, so the replay recomputes the same documents:
      // what was already written does not change and the rest is completed. A projection that
      // accumulates must guard by a position stored on its documents.
      await apply();
      return;
    }
    const session = this.client.startSession();
    try {
      // withTransaction retries the whole callback on transient errors; apply is safe to repeat.
      await session.withTransaction(() => apply(session));
    } finally {
      await session.endSession();
    }
  }

  async deleteSomeWhere(collection: string, field: string, eq: string, limit: number): Promise<number> {
    const ids = (await this.coll(collection).find(toFilter([{ field, eq }]), { projection: { _id: 1 } }).limit(limit).toArray()).map((doc) => doc._id);
    if (ids.length === 0) return 0;
    return (await this.coll(collection).deleteMany({ _id: { $in: ids } })).deletedCount;
  }

  async checkpoint(name: string): Promise<bigint> {
    const row = await this.checkpoints().findOne({ _id: name });
    return row ? BigInt(row.position) : 0n;
  }

  /** The store itself: the writes go over the same client, in order. */
  generationWriter(): GenerationWriter {
    return {
      commit: (writes, checkpoints) => this.commit(writes, checkpoints),
      drop: (collections) => this.drop(collections),
      close: () => Promise.resolve(),
    };
  }

  async reset(collections: readonly string[], checkpointNames: readonly string[]): Promise<void> {
    // Checkpoints go first: a crash in between leaves documents without a checkpoint, which the
    // runner's start-up clears, never a checkpoint claiming documents that are gone.
    if (checkpointNames.length > 0) await this.checkpoints().deleteMany({ _id: { $in: [...checkpointNames] } });
    for (const collection of collections) await this.coll(collection).deleteMany({});
  }

  async drop(collections: readonly string[]): Promise<void> {
    for (const collection of collections) {
      // With its indexes; a missing one is skipped (servers before 7.0 refuse to drop it).
      if (await this.exists(collection)) await this.coll(collection).drop();
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
