import { valueAtKeys } from '../infra/read-store/field-value';
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

export type BatchContext = ProjectionContext & {
  /** The characters of JSON the batch holds: what a caller bounds a long batch by. */
  bytes(): number;
  /**
   * What to commit: the deletions by field first, then one write per document, in id order within
   * each collection (neighbouring keys: a long batch fills its tables' b-trees page by page).
   */
  writes(): Write[];
};

export const batchContext = (
  /** Where documents the batch does not hold are read: the store (or a batch being committed to it). */
  readStore: Pick<ReadStore, 'get'>,
  indexed: ReadonlyMap<string, readonly string[]> = new Map(),
): BatchContext => {
  const pending = new Map<string, Map<string, Put | null>>();
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
  let bytes = 0;
  const hold = (collection: string, id: string, put: Put | null) => {
    const docs = of(collection);
    bytes += (put?.json.length ?? 0) - (docs.get(id)?.json.length ?? 0);
    docs.set(id, put);
  };
  // Per collection, its indexed fields with their keys (split once, not at every put).
  const paths = new Map<string, (readonly [string, readonly string[]])[] | null>();
  const pathsOf = (collection: string) => {
    let known = paths.get(collection);
    if (known === undefined) {
      known = indexed.get(collection)?.map((field) => [field, field.split('.')] as const) ?? null;
      paths.set(collection, known);
    }
    return known;
  };
  const erased = (collection: string, doc: Doc) => (erasures.get(collection) ?? []).some(({ field, eq }) => doc[field] === eq);
  return {
    get: async <T extends Doc>(collection: string, id: string) => {
      const docs = of(collection);
      if (docs.has(id)) {
        const put = docs.get(id);
        return put ? (JSON.parse(put.json) as T) : null;
      }
      const stored = await readStore.get<T>(collection, id);
      return stored && erased(collection, stored) ? null : stored;
    },
    put: (collection, doc) => {
      const json = JSON.stringify(doc);
      const fields = pathsOf(collection);
      if (!fields) return hold(collection, doc.id, { json });
      const values: Record<string, unknown> = {};
      for (const [field, keys] of fields) values[field] = valueAtKeys(doc, keys);
      hold(collection, doc.id, { json, fields: values });
    },
    delete: (collection, id) => {
      hold(collection, id, null);
    },
    deleteWhere: (collection, field, eq) => {
      erasures.set(collection, [...(erasures.get(collection) ?? []), { field, eq }]);
      for (const [id, put] of of(collection)) {
        if (put !== null && (put.fields && field in put.fields ? put.fields[field] : (JSON.parse(put.json) as Doc)[field]) === eq) hold(collection, id, null);
      }
    },
    bytes: () => bytes,
    writes: () => [
      ...[...erasures].flatMap(([collection, list]) => list.map(({ field, eq }): Write => ({ op: 'deleteWhere', collection, field, eq }))),
      ...[...pending].flatMap(([collection, docs]) =>
        [...docs]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([id, put]): Write => (put === null ? { op: 'delete', collection, id } : { op: 'put_json', collection, id, ...put })),
      ),
    ],
  };
};
