import type { DomainEvent } from '../../domain/shared/decider';
import type { EventMetadata, StoredEvent } from '../../infra/event-store/port';
import type { Doc } from '../../infra/read-store/port';
import { indexedFields } from '../../projections/engine/apply-batch';
import { batchContext } from '../../projections/engine/batch-context';
import type { Projection } from '../../projections/engine/projection';
import { memoryContext } from '../../projections/engine/replay';
import { testMetadata } from './events';

/** An event as a projection spec gives it: a domain event, optionally with its own metadata. */
export type GivenEvent = DomainEvent & Readonly<{ metadata?: Partial<EventMetadata> }>;

type MemoryStore = ReturnType<typeof memoryContext>;

/** Runs the events through the projection as the runner does: in batches, each committed to the store before the next reads it. */
const inBatches = async (projection: Projection, events: readonly StoredEvent[], size: number): Promise<MemoryStore> => {
  const store = memoryContext();
  for (let from = 0; from < events.length; from += size) {
    const context = batchContext({ get: store.get, findWhere: store.findWhere }, indexedFields([projection]));
    for (const event of events.slice(from, from + size)) await projection.apply(event, context);
    for (const write of context.writes()) {
      if (write.op === 'put_json') store.put(write.collection, JSON.parse(write.json) as Doc);
      else if (write.op === 'put') store.put(write.collection, write.doc);
      else if (write.op === 'delete') store.delete(write.collection, write.id);
      else if (write.op === 'deleteWhere') store.deleteWhere(write.collection, write.field, write.eq);
    }
  }
  return store;
};

/**
 * given(events) → then(collection, documents), as Emmett's projection specs: the events run through
 * the projection in order, against documents held in memory, and the collection must then hold
 * exactly the expected documents (by id). The same again as the runner applies them, all in one
 * batch and a batch per event, which must leave the same documents. A projection that keeps state of
 * its own (what a sandbox reset's guard learns) is given as a function making a fresh one for each run.
 */
export const projectionSpec = (projection: Projection | (() => Projection)) => {
  const fresh = typeof projection === 'function' ? projection : () => projection;
  const { handles } = fresh();
  return {
    given: (events: readonly GivenEvent[]) => ({
      then: async (collection: string, expected: readonly Doc[]) => {
        const stored = events
          .map((event, i): StoredEvent => ({
            id: `evt_${i}`,
            type: event.type,
            version: 1,
            data: event.data,
            metadata: testMetadata(event.metadata),
            streamId: 'spec',
            revision: i,
            position: BigInt(i + 1),
          }))
          .filter((event) => handles.includes(event.type));
        const byId = (docs: readonly Doc[]) => [...docs].sort((a, b) => (a.id < b.id ? -1 : 1));
        const context = memoryContext();
        const once = fresh();
        for (const event of stored) await once.apply(event, context);
        expect(byId(context.documents(collection))).toEqual(byId(expected));
        for (const size of [Math.max(stored.length, 1), 1]) expect(byId((await inBatches(fresh(), stored, size)).documents(collection))).toEqual(byId(expected));
      },
    }),
  };
};
