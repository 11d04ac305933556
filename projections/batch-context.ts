import type { Doc, ReadStore, Write } from '../infra/read-store/port';
import type { ProjectionContext } from './projection';

type Erasure = Readonly<{ field: string; eq: string }>;

/**
 * Buffers a batch's writes so they commit together, while later events in the batch read them.
 * A put keeps the document as JSON text: a copy the handler can no longer change, made once, and
 * the very text the store writes (a document put many times in a batch is written once, as last put).
 * The put object is kept beside it, frozen at its top level, for a store that reads indexed fields from it.
 */
type Put = Readonly<{ json: string; doc: Readonly<Doc> }>;

export const batchContext = (readStore: ReadStore): ProjectionContext & { writes(): Write[] } => {
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
      of(collection).set(doc.id, { json: JSON.stringify(doc), doc: Object.freeze(doc) });
    },
    delete: (collection, id) => {
      of(collection).set(id, null);
    },
    deleteWhere: (collection, field, eq) => {
      erasures.set(collection, [...(erasures.get(collection) ?? []), { field, eq }]);
      for (const [id, put] of of(collection)) if (put !== null && put.doc[field] === eq) of(collection).set(id, null);
    },
    writes: () => [
      ...[...erasures].flatMap(([collection, list]) => list.map(({ field, eq }): Write => ({ op: 'deleteWhere', collection, field, eq }))),
      ...[...pending].flatMap(([collection, docs]) =>
        [...docs].map(([id, put]): Write => (put === null ? { op: 'delete', collection, id } : { op: 'put_json', collection, id, ...put })),
      ),
    ],
  };
};
