import { decodeEvent } from '../../domain/decode-event';
import type { StoredEvent } from '../../infra/event-store/port';
import type { Projection, ProjectionContext } from './projection';

/** A projection to run a batch through, and the position it has applied up to. */
export type Target = Readonly<{ projection: Projection; after: bigint }>;

/**
 * Runs each event of the batch through the projections that handle it and have not applied it yet,
 * decoded (upcast) once for all of them. Each projection reads and writes only its own collections,
 * so event by event gives the documents that projection by projection would.
 */
export const applyBatch = async (targets: readonly Target[], batch: readonly StoredEvent[], context: ProjectionContext): Promise<void> => {
  const byType = new Map<string, Target[]>();
  for (const target of targets) {
    for (const type of target.projection.handles) {
      const handlers = byType.get(type);
      if (handlers) handlers.push(target);
      else byType.set(type, [target]);
    }
  }
  for (const event of batch) {
    const handlers = byType.get(event.type);
    if (!handlers) continue;
    let decoded: StoredEvent | null = null;
    for (const { projection, after } of handlers) {
      if (event.position <= after) continue;
      decoded ??= decodeEvent(event);
      await projection.apply(decoded, context);
    }
  }
};

/** Per collection, the fields the projections' indexes name: a batch hands their values to the store with each document. */
export const indexedFields = (projections: readonly Projection[]): ReadonlyMap<string, readonly string[]> => {
  const indexed = new Map<string, Set<string>>();
  for (const { collection, fields } of projections.flatMap((projection) => projection.indexes)) {
    indexed.set(collection, new Set([...(indexed.get(collection) ?? []), ...fields]));
  }
  return new Map([...indexed].map(([collection, fields]) => [collection, [...fields]]));
};
