import type { DomainEvent } from '../../domain/shared/decider';
import type { EventMetadata, StoredEvent } from '../../infra/event-store/port';
import type { Doc } from '../../infra/read-store/port';
import type { Projection } from '../../projections/engine/projection';
import { memoryContext } from '../../projections/engine/replay';
import { testMetadata } from './events';

/** An event as a projection spec gives it: a domain event, optionally with its own metadata. */
export type GivenEvent = DomainEvent & Readonly<{ metadata?: Partial<EventMetadata> }>;

/**
 * given(events) → then(collection, documents), as Emmett's projection specs: the events run through
 * the projection in order, against documents held in memory, and the collection must then hold
 * exactly the expected documents (by id).
 */
export const projectionSpec = (projection: Projection) => ({
  given: (events: readonly GivenEvent[]) => ({
    then: async (collection: string, expected: readonly Doc[]) => {
      const context = memoryContext();
      for (const [i, event] of events.entries()) {
        const stored: StoredEvent = {
          id: `evt_${i}`,
          type: event.type,
          version: 1,
          data: event.data,
          metadata: testMetadata(event.metadata),
          streamId: 'spec',
          revision: i,
          position: BigInt(i + 1),
        };
        if (projection.handles.includes(event.type)) await projection.apply(stored, context);
      }
      const byId = (docs: readonly Doc[]) => [...docs].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(byId(context.documents(collection))).toEqual(byId(expected));
    },
  }),
});
