import { decodeEvent } from '../../domain/decode-event';
import type { StoredEvent } from '../../infra/event-store/port';
import type { Doc } from '../../infra/read-store/port';
import type { Projection, ProjectionContext } from './projection';

/** Documents held in memory, by collection then id: what a projection writes when it is replayed off the store. */
export const memoryContext = (): ProjectionContext & { documents(collection: string): Doc[] } => {
  const collections = new Map<string, Map<string, Doc>>();
  const of = (name: string) => collections.get(name) ?? collections.set(name, new Map()).get(name)!;
  return {
    get: <T extends Doc>(name: string, id: string) => Promise.resolve((of(name).get(id) as T | undefined) ?? null),
    put: (name, doc) => void of(name).set(doc.id, structuredClone(doc)),
    delete: (name, id) => void of(name).delete(id),
    deleteWhere: (name, field, eq) => {
      for (const [id, doc] of of(name)) if (doc[field] === eq) of(name).delete(id);
    },
    documents: (name) => [...of(name).values()],
  };
};

/** Runs recorded events through a projection's own `apply`, upcast as the runner decodes them, into a context. */
export const replay = async (projection: Projection, events: readonly StoredEvent[], context: ProjectionContext): Promise<void> => {
  for (const event of events) {
    if (projection.handles.includes(event.type)) await projection.apply(decodeEvent(event), context);
  }
};
