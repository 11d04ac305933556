import { type AnyBulkWriteOperation, type ClientSession, type Db, type Document, type Filter, MongoClient } from 'mongodb';
import { assertCollection, assertField } from './names';
import type { Checkpoint, Condition, Doc, FindQuery, IndexSpec, Page, ReadStore, Write } from './port';
import { UnknownCursor } from './unknown-cursor';

type Stored = Document & { _id: string };

const collectionName = (collection: string): string => `rm_${assertCollection(collection)}`;
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const toFilter = (conditions: readonly Condition[] = []): Filter<Stored> => {
  const filter: Record<string, unknown> = {};
  const and: Record<string, unknown>[] = [];
  for (const condition of conditions) {
    const field = condition.field === 'id' ? '_id' : assertField(condition.field);
    if ('eq' in condition) and.push({ [field]: condition.eq });
    else if ('in' in condition) and.push({ [field]: { $in: condition.in } });
    else and.push({ [field]: { $regex: `^${escapeRegex(condition.ieq)}$`, $options: 'i' } });
  }
  if (and.length > 0) filter.$and = and;
  return filter as Filter<Stored>;
};

const fromStored = <T extends Doc>(stored: Stored): T => {
  const { _id, ...rest } = stored;
  return { id: _id, ...rest } as unknown as T;
};

const toStored = (doc: Doc): Stored => {
  const { id, ...rest } = doc;
  return { _id: id, ...rest };
};

/** Read models in MongoDB: one collection per read model, documents keyed by their id. */
export class MongoReadStore implements ReadStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly transactions: boolean,
  ) {}

  static async connect(url: string, dbName: string): Promise<MongoReadStore> {
    const client = await new MongoClient(url).connect();
    const db = client.db(dbName);
    const hello = await db.admin().command({ hello: 1 });
    // Transactions need a replica set (the docker-compose stack runs one).
    return new MongoReadStore(client, db, typeof hello.setName === 'string');
  }

  private coll(collection: string) {
    return this.db.collection<Stored>(collectionName(collection));
  }

  async ensureIndexes(indexes: readonly IndexSpec[]): Promise<void> {
    for (const index of indexes) {
      await this.coll(index.collection).createIndex(
        Object.fromEntries(index.fields.map((field) => [assertField(field), 1])),
        { unique: index.unique ?? false },
      );
    }
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const stored = await this.coll(collection).findOne({ _id: id });
    return stored ? fromStored<T>(stored) : null;
  }

  async find<T extends Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    const order = assertField(query.orderBy);
    const filter = toFilter(query.where);
    const and: Filter<Stored>[] = [filter];
    if (query.startingAfter !== undefined) {
      const cursor = await this.coll(collection).findOne({ $and: [filter, { _id: query.startingAfter }] } as Filter<Stored>);
      if (!cursor) throw new UnknownCursor(query.startingAfter);
      const value: unknown = cursor[order];
      and.push({ $or: [{ [order]: { $lt: value } }, { [order]: value, _id: { $lt: query.startingAfter } }] } as Filter<Stored>);
    }
    const rows = await this.coll(collection)
      .find({ $and: and } as Filter<Stored>)
      .sort({ [order]: -1, _id: -1 })
      .limit(query.limit + 1)
      .toArray();
    return { data: rows.slice(0, query.limit).map((row) => fromStored<T>(row)), hasMore: rows.length > query.limit };
  }

  async findAll<T extends Doc>(collection: string, where?: readonly Condition[]): Promise<T[]> {
    const rows = await this.coll(collection).find(toFilter(where)).sort({ _id: 1 }).toArray();
    return rows.map((row) => fromStored<T>(row));
  }

  count(collection: string, where?: readonly Condition[]): Promise<number> {
    return this.coll(collection).countDocuments(toFilter(where));
  }

  async commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void> {
    const byCollection = new Map<string, AnyBulkWriteOperation<Stored>[]>();
    for (const write of writes) {
      const operations = byCollection.get(write.collection) ?? [];
      operations.push(
        write.op === 'put'
          ? { replaceOne: { filter: { _id: write.doc.id }, replacement: toStored(write.doc), upsert: true } }
          : { deleteOne: { filter: { _id: write.id } } },
      );
      byCollection.set(write.collection, operations);
    }
    const run = async (session?: ClientSession) => {
      for (const [collection, operations] of byCollection) {
        await this.coll(collection).bulkWrite(operations, { ordered: true, session });
      }
      if (checkpoint) {
        await this.db
          .collection<{ _id: string; position: string }>('projection_checkpoints')
          .updateOne({ _id: checkpoint.name }, { $set: { position: checkpoint.position.toString() } }, { upsert: true, session });
      }
    };
    if (!this.transactions) {
      // Without a replica set: whole-document upserts make a replayed batch change nothing, so a
      // crash before the checkpoint moves only repeats work.
      await run();
      return;
    }
    const session = this.client.startSession();
    try {
      await session.withTransaction(() => run(session));
    } finally {
      await session.endSession();
    }
  }

  async checkpoint(name: string): Promise<bigint> {
    const row = await this.db.collection<{ _id: string; position: string }>('projection_checkpoints').findOne({ _id: name });
    return row ? BigInt(row.position) : 0n;
  }

  async reset(collections: readonly string[], checkpointNames: readonly string[]): Promise<void> {
    for (const collection of collections) await this.coll(collection).deleteMany({});
    if (checkpointNames.length > 0) {
      await this.db.collection<{ _id: string }>('projection_checkpoints').deleteMany({ _id: { $in: [...checkpointNames] } });
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
