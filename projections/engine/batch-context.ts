import { frozenUnderTest } from '../../infra/frozen-under-test';
import { valueAtKeys } from '../../infra/read-store/field-value';
import type { Doc, ReadStore, Write } from '../../infra/read-store/port';
import type { ProjectionContext } from './projection';

type Erasure = Readonly<{ field: string; eq: string }>;

/**
 * A pending write: the document as put (held as the object, serialised once when the batch is
 * written: a document put many times in a batch costs one serialisation, as last put), what
 * computes it (`putComputed`), or null for a deletion.
 */
type Held = Doc | null | (() => Doc | null);

/** Where a batch reads what it does not hold: the store, or a batch being committed to it. */
export type BatchSource = Pick<ProjectionContext, 'get'> & Partial<Pick<ProjectionContext, 'findWhere'>>;

/** A store as a batch reads it. */
export const storeSource = (store: Pick<ReadStore, 'get'> & Partial<Pick<ReadStore, 'findAll'>>): BatchSource => ({
  get: (collection, id) => store.get(collection, id),
  ...(store.findAll ? { findWhere: (collection: string, field: string, eq: string) => store.findAll!(collection, [{ field, eq }]) } : {}),
});

export type BatchContext = ProjectionContext & {
  /** The writes the batch holds (one per document): what a caller bounds a long batch by. */
  held(): number;
  /** What to commit: the deletions by field first, then each collection's writes (`collectionWrites`). */
  writes(): Write[];
};

/** Buffers a batch's writes so they commit together, while later events in the batch read them. */
export const batchContext = (
  /** Where documents the batch does not hold are read. */
  source: BatchSource,
  indexed: ReadonlyMap<string, readonly string[]> = new Map(),
): BatchContext => {
  const pending = new Map<string, Map<string, Held>>();
  // Deletions by field, per collection: committed before the writes by id, so a document the batch
  // wrote before the deletion is deleted with it (its pending write becomes a delete), and one written
  // after it stays.
  const erasures = new Map<string, Erasure[]>();
  let held = 0;
  /** What the batch read of the store, by collection and id (maps of maps: a key made of both would be a new string, hashed, at every read). */
  const read = new Map<string, Map<string, Promise<Doc | null>>>();
  const byCollection = <V>(maps: Map<string, Map<string, V>>, collection: string) => {
    let docs = maps.get(collection);
    if (!docs) {
      docs = new Map();
      maps.set(collection, docs);
    }
    return docs;
  };
  const of = (collection: string) => byCollection(pending, collection);
  const docOf = (write: Held): Doc | null => (typeof write === 'function' ? frozenUnderTest(write()) : write);
  const hold = (collection: string, id: string, write: Held) => {
    const docs = of(collection);
    if (!docs.has(id)) held += 1;
    docs.set(id, write);
  };
  // Per collection, its indexed fields with their keys (split once, not at every write).
  const paths = new Map<string, (readonly [string, readonly string[]])[] | null>();
  const pathsOf = (collection: string) => {
    let known = paths.get(collection);
    if (known === undefined) {
      known = indexed.get(collection)?.map((field) => [field, field.split('.')] as const) ?? null;
      paths.set(collection, known);
    }
    return known;
  };
  /** The document serialised, with the values of the fields the collection's indexes name, for a store that indexes them without parsing. */
  const putWrite = (collection: string, doc: Doc): Write => {
    const json = JSON.stringify(doc);
    const fields = pathsOf(collection);
    if (!fields) return { op: 'put_json', collection, id: doc.id, json };
    const values: Record<string, unknown> = {};
    for (const [field, keys] of fields) values[field] = valueAtKeys(doc, keys);
    return { op: 'put_json', collection, id: doc.id, json, fields: values };
  };
  /** A collection's pending writes, in id order (neighbouring keys: a long batch fills its table's b-tree page by page). */
  const collectionWrites = (collection: string, docs: ReadonlyMap<string, Held>): Write[] =>
    [...docs]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([id, write]): Write => {
        const doc = docOf(write);
        return doc === null ? { op: 'delete', collection, id } : putWrite(collection, doc);
      });
  const erased = (collection: string, doc: Doc) => (erasures.get(collection) ?? []).some(({ field, eq }) => doc[field] === eq);
  return {
    get: async <T extends Doc>(collection: string, id: string) => {
      const docs = of(collection);
      if (docs.has(id)) return docOf(docs.get(id)!) as T | null;
      // Read once a batch: nothing but the batch writes its collections, and what it writes it holds.
      const reads = byCollection(read, collection);
      let reading = reads.get(id) as Promise<T | null> | undefined;
      if (!reading) {
        reading = source.get<T>(collection, id);
        reads.set(id, reading);
      }
      const stored = await reading;
      return stored && erased(collection, stored) ? null : stored;
    },
    findWhere: async <T extends Doc>(collection: string, field: string, eq: string) => {
      if (!source.findWhere) throw new Error(`this batch's store cannot find ${collection} by ${field}`);
      const docs = of(collection);
      const found = (await source.findWhere<T>(collection, field, eq)).filter((doc) => !docs.has(doc.id) && !erased(collection, doc));
      for (const write of docs.values()) {
        const doc = docOf(write);
        if (doc !== null && doc[field] === eq) found.push(doc as T);
      }
      return found;
    },
    // Handlers never change a document after putting it, nor one they got (they put a changed copy):
    // the batch hands back the very object it holds. Frozen under test, so a handler that breaks the
    // rule fails its tests (frozen in production too, the objects cost the collector about 3× as much).
    put: (collection, doc) => hold(collection, doc.id, frozenUnderTest(doc)),
    putComputed: (collection, id, compute) => hold(collection, id, compute),
    delete: (collection, id) => hold(collection, id, null),
    deleteWhere: (collection, field, eq) => {
      erasures.set(collection, [...(erasures.get(collection) ?? []), { field, eq }]);
      for (const [id, write] of of(collection)) {
        if (docOf(write)?.[field] === eq) hold(collection, id, null);
      }
    },
    held: () => held,
    writes: () => [
      ...[...erasures].flatMap(([collection, list]) => list.map(({ field, eq }): Write => ({ op: 'deleteWhere', collection, field, eq }))),
      ...[...pending].flatMap(([collection, docs]) => collectionWrites(collection, docs)),
    ],
  };
};
