import { decodeEvent } from '../../domain/decode-event';
import type { StoredEvent } from '../../infra/event-store/port';
import type { Doc } from '../../infra/read-store/port';
import type { Projection, ProjectionContext } from './projection';

/** Documents held in memory, by collection then id: what a projection writes when it is replayed off the store. */
export const memoryContext = (): ProjectionContext & { documents(collection: string): Doc[] } => {
  const collections = new Map<string, Map<string, Doc | (() => Doc | null)>>();
  const of = (name: string) => collections.get(name) ?? collections.set(name, new Map()).get(name)!;
  const documents = (name: string) => [...of(name).values()].flatMap((held) => (typeof held === 'function' ? (held() ?? []) : [held]));
  return {
    get: <T extends Doc>(name: string, id: string) => {
      const held = of(name).get(id);
      return Promise.resolve(((typeof held === 'function' ? held() : held) as T | null | undefined) ?? null);
    },
    put: (name, doc) => void of(name).set(doc.id, structuredClone(doc)),
    putComputed: (name, id, compute) => void of(name).set(id, compute),
    delete: (name, id) => void of(name).delete(id),
    deleteWhere: (name, field, eq) => {
      for (const doc of documents(name)) if (doc[field] === eq) of(name).delete(doc.id);
    },
    findWhere: <T extends Doc>(name: string, field: string, eq: string) => Promise.resolve(documents(name).filter((doc) => doc[field] === eq) as T[]),
    documents,
  };
};

/** Runs recorded events through a projection's own `apply`, upcast as the runner decodes them, into a context. */
export const replay = async (projection: Projection, events: readonly StoredEvent[], context: ProjectionContext): Promise<void> => {
  for (const event of events) {
    if (projection.handles.includes(event.type)) await projection.apply(decodeEvent(event), context);
  }
};
