import type { Doc, ReadStore, Write } from '../infra/read-store/port';
import type { ProjectionContext } from './projection';

/** Buffers a batch's writes so they commit together, while later events in the batch read them. */
export const batchContext = (readStore: ReadStore): ProjectionContext & { writes(): Write[] } => {
  const pending = new Map<string, Map<string, Doc | null>>();
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
      if (docs.has(id)) return (docs.get(id) ?? null) as T | null;
      return readStore.get<T>(collection, id);
    },
    put: (collection, doc) => {
      of(collection).set(doc.id, structuredClone(doc));
    },
    delete: (collection, id) => {
      of(collection).set(id, null);
    },
    writes: () =>
      [...pending].flatMap(([collection, docs]) =>
        [...docs].map(([id, doc]): Write => (doc ? { op: 'put', collection, doc } : { op: 'delete', collection, id })),
      ),
  };
};
