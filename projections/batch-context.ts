import type { Doc, ReadStore, Write } from '../infra/read-store/port';
import type { ProjectionContext } from './projection';

/**
 * Buffers a batch's writes so they commit together, while later events in the batch read them.
 * A put keeps the document as JSON text: a copy the handler can no longer change, made once, and
 * the very text the store writes (a document put many times in a batch is written once, as last put).
 */
export const batchContext = (readStore: ReadStore): ProjectionContext & { writes(): Write[] } => {
  const pending = new Map<string, Map<string, string | null>>();
  const of = (collection: string) => {
    let docs = pending.get(collection);
    if (!docs) {
      docs = new Map();
      pending.set(collection, docs);
    }
    return docs;
  };
  return {
    get: async <T extends Doc>(collection: string, id: string) => {
      const docs = of(collection);
      if (docs.has(id)) {
        const json = docs.get(id);
        return json ? (JSON.parse(json) as T) : null;
      }
      return readStore.get<T>(collection, id);
    },
    put: (collection, doc) => {
      of(collection).set(doc.id, JSON.stringify(doc));
    },
    delete: (collection, id) => {
      of(collection).set(id, null);
    },
    writes: () =>
      [...pending].flatMap(([collection, docs]) =>
        [...docs].map(([id, json]): Write => (json === null ? { op: 'delete', collection, id } : { op: 'put_json', collection, id, json })),
      ),
  };
};
