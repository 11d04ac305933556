import { valueAt } from '../infra/read-store/field-value';
import type { Doc, ReadStore, Write } from '../infra/read-store/port';
import type { ProjectionContext } from './projection';

type Erasure = Readonly<{ field: string; eq: string }>;

/**
 * Buffers a batch's writes so they commit together, while later events in the batch read them.
 * A put keeps the document as JSON text: a copy the handler can no longer change, made once, and
 * the very text the store writes (a document put many times in a batch is written once, as last put).
 * Beside it, the values of the fields the collection's indexes name (`indexed`), taken as put, for
 * a store that indexes them without parsing the text.
 */
type Put = Readonly<{ json: string; fields?: Record<string, unknown> }>;
/** A document of a `putEach`: the fields it shares with the others of that call (the same object for all). */
type Each = Readonly<{ each: Readonly<Record<string, unknown>> }>;

const fieldOf = (put: Put | Each, field: string): unknown => {
  if ('each' in put) return put.each[field];
  return put.fields && field in put.fields ? put.fields[field] : (JSON.parse(put.json) as Doc)[field];
};

/** A collection's pending writes; the documents of one `putEach` still pending (not replaced since) go in one write. */
const collectionWrites = (collection: string, docs: ReadonlyMap<string, Put | Each | null>): Write[] => {
  const writes: Write[] = [];
  const each = new Map<Each, string[]>();
  for (const [id, put] of docs) {
    if (put === null) writes.push({ op: 'delete', collection, id });
    else if ('each' in put) {
      const ids = each.get(put);
      if (ids) ids.push(id);
      else each.set(put, [id]);
    } else writes.push({ op: 'put_json', collection, id, ...put });
  }
  for (const [put, ids] of each) writes.push({ op: 'put_each', collection, ids, doc: put.each });
  return writes;
};

export const batchContext = (
  readStore: ReadStore,
  indexed: ReadonlyMap<string, readonly string[]> = new Map(),
): ProjectionContext & { writes(): Write[] } => {
  const pending = new Map<string, Map<string, Put | Each | null>>();
  // Deletions by field, per collection: committed before the writes by id, so a document the batch
  // wrote before the deletion is deleted with it (its pending write becomes a delete), and one written
  // after it stays.
  const erasures = new Map<string, Erasure[]>();
  const of = (collection: string) => {
    let docs = pending.get(collection);
    if (!docs) {
      docs = new Map();
      pending.set(collection, docs);
    }
    return docs;
  };
  const erased = (collection: string, doc: Doc) => (erasures.get(collection) ?? []).some(({ field, eq }) => doc[field] === eq);
  return {
    get: async <T extends Doc>(collection: string, id: string) => {
      const docs = of(collection);
      if (docs.has(id)) {
        const put = docs.get(id);
        if (!put) return null;
        return ('each' in put ? { id, ...structuredClone(put.each) } : JSON.parse(put.json)) as T;
      }
      const stored = await readStore.get<T>(collection, id);
      return stored && erased(collection, stored) ? null : stored;
    },
    put: (collection, doc) => {
      const fields = indexed.get(collection);
      of(collection).set(doc.id, { json: JSON.stringify(doc), ...(fields && { fields: Object.fromEntries(fields.map((field) => [field, valueAt(doc, field)])) }) });
    },
    putEach: (collection, ids, doc) => {
      // Copied once for all the ids (a later change to `doc` is not written), not serialized per document: the store writes them in one statement.
      const shared: Each = { each: structuredClone(doc) };
      const docs = of(collection);
      for (const id of ids) docs.set(id, shared);
    },
    delete: (collection, id) => {
      of(collection).set(id, null);
    },
    deleteWhere: (collection, field, eq) => {
      erasures.set(collection, [...(erasures.get(collection) ?? []), { field, eq }]);
      for (const [id, put] of of(collection)) {
        if (put !== null && fieldOf(put, field) === eq) of(collection).set(id, null);
      }
    },
    writes: () => [
      ...[...erasures].flatMap(([collection, list]) => list.map(({ field, eq }): Write => ({ op: 'deleteWhere', collection, field, eq }))),
      ...[...pending].flatMap(([collection, docs]) => collectionWrites(collection, docs)),
    ],
  };
};
