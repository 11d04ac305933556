import type { DomainEvent } from '../../domain/shared/decider';
import type { StoredEvent } from '../../infra/event-store/port';
import type { Doc, IndexSpec, ReadStore } from '../../infra/read-store/port';

/** What a projection handler sees: reads that include the batch's own pending writes. */
export type ProjectionContext = Readonly<{
  get<T extends Doc>(collection: string, id: string): Promise<T | null>;
  put(collection: string, doc: Doc): void;
  delete(collection: string, id: string): void;
  /** Deletes every document of the collection whose `field` is `eq` (top-level fields only). */
  deleteWhere(collection: string, field: string, eq: string): void;
  /** Every document of the collection whose `field` is `eq` (a top-level field an index names): those the batch holds, and the store's others. */
  findWhere<T extends Doc>(collection: string, field: string, eq: string): Promise<T[]>;
  /**
   * Holds a document the batch computes only when it is read or written: `compute` answers it as it
   * then stands (null: none, deleted). A sum that many events of a batch add to is kept by its
   * projection as it likes (amounts as `Money`) and formatted once, not copied at every event. The
   * projection changes what `compute` reads only while it applies events with this context; a
   * later put, delete or `deleteWhere` of the document replaces it.
   */
  putComputed(collection: string, id: string, compute: () => Doc | null): void;
}>;

/** An event as a projection gets it: one of the types it handles, decoded, with its place in the log and its metadata. */
export type ProjectedEvent<Event extends DomainEvent> = Event & Omit<StoredEvent, 'type' | 'data'>;

/** The types of the events, one by one (so the types of a union joined with a generic one stay a union). */
type TypesOf<Event extends DomainEvent> = Event extends DomainEvent ? Event['type'] : never;

/**
 * One read model: the events it follows and the documents it writes from them. Typed by the events
 * it handles, it gets each as its own type; the runner hands it those types only.
 */
export type Projection<Event extends DomainEvent = DomainEvent> = Readonly<{
  name: string;
  /** Bump when the documents' shape changes: the runner rebuilds the read model from zero. */
  version: number;
  collections: readonly string[];
  /**
   * Collections an earlier version of this read model wrote and this one does not: the runner
   * drops them, of every generation up to the one after the live one, when it starts.
   */
  retired?: readonly string[];
  indexes: readonly IndexSpec[];
  handles: readonly TypesOf<Event>[];
  apply(event: ProjectedEvent<Event>, context: ProjectionContext): Promise<void>;
  /**
   * What it keeps in memory beside its documents, learnt again from the read models (`live`: their
   * live generations) before the runner follows the log from its checkpoint.
   */
  resume?(live: Pick<ReadStore, 'findAll'>): Promise<void>;
}>;
