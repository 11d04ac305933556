import type { MessagePort } from 'node:worker_threads';

/** A read-model document: plain JSON with a string id. */
export type Doc = { id: string } & Record<string, unknown>;

/** Equality, membership, case-insensitive equality and at-most (strings compare as text, a null field never matches) on top-level (or dotted) fields. */
export type Condition =
  | { field: string; eq: string | number | boolean | null }
  | { field: string; in: readonly (string | number | boolean)[] }
  | { field: string; ieq: string }
  | { field: string; lte: string };

export type FindQuery = Readonly<{
  where?: readonly Condition[];
  /** Newest first: descending on this field, ties broken by descending id. */
  orderBy: string;
  limit: number;
  /**
   * Id of the last document of the previous page. It is a position, not a member of the filter:
   * the page continues after that document's place in the order even if it no longer meets `where`.
   */
  startingAfter?: string;
  /** What the `startingAfter` document must meet (its owner, say); without it, any document of the collection. */
  cursorWhere?: readonly Condition[];
}>;

export type Page<T> = Readonly<{ data: T[]; hasMore: boolean }>;

/** A page of a collection in id order: up to `limit` documents after the id `after` (from the first without it). */
export type IdPage = Readonly<{ after?: string; limit: number }>;

export type IndexSpec = Readonly<{ collection: string; fields: readonly string[]; unique?: boolean }>;

export type Write =
  | { op: 'put'; collection: string; doc: Doc }
  /**
   * A put of a document already serialized (a projection batch serializes each document once, when
   * the batch is written); `fields`: the values, as put, of the fields the collection's indexes name, which a
   * store may index without parsing `json`.
   */
  | { op: 'put_json'; collection: string; id: string; json: string; fields?: Readonly<Record<string, unknown>> }
  | { op: 'delete'; collection: string; id: string }
  /** Every document of the collection with `field` equal to `eq` (what one organisation holds, say). */
  | { op: 'deleteWhere'; collection: string; field: string; eq: string };

export type Checkpoint = Readonly<{ name: string; position: bigint }>;

/**
 * Writes into collections nothing reads yet (a rebuild's new generation), in the order given: each
 * `commit` as `ReadStore.commit` does. A store may run them beside the caller (the SQLite store on a
 * thread of its own, with its own connection, which reads a collection's layout once: its indexes
 * are made through the store before the writer is opened); what is committed is read back through
 * the store once the promise has resolved.
 */
export interface GenerationWriter {
  commit(writes: readonly Write[], checkpoints?: readonly Checkpoint[]): Promise<void>;
  /** As `ReadStore.drop`, for collections nothing reads any more (a generation a rebuild retired). */
  drop(collections: readonly string[]): Promise<void>;
  /**
   * A port another thread of this process commits through (collections named as stored), its
   * requests applied in their order of arrival with this writer's: only a writer on a thread of
   * its own (SQLite) has one.
   */
  attach?(): Promise<MessagePort>;
  close(): Promise<void>;
}

export interface ReadStore {
  ensureIndexes(indexes: readonly IndexSpec[]): Promise<void>;
  /**
   * Drops the secondary indexes of the collections, keeping their documents and the layout their
   * indexes gave them (an offline replay drops them, writes, then indexes).
   */
  dropIndexes(collections: readonly string[]): Promise<void>;
  get<T extends Doc>(collection: string, id: string): Promise<T | null>;
  /** The documents with these ids that exist, in no particular order: one round trip for a batch of lookups. */
  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<T[]>;
  find<T extends Doc>(collection: string, query: FindQuery): Promise<Page<T>>;
  /**
   * Every document of a collection matching the conditions, in id order (for small sets); with
   * `page`, at most `limit` of them, after the id `after` when given (a large one read in pages).
   */
  findAll<T extends Doc>(collection: string, where?: readonly Condition[], page?: IdPage): Promise<T[]>;
  count(collection: string, where?: readonly Condition[]): Promise<number>;
  /**
   * Applies the writes and moves the checkpoints together: all or nothing where the store allows.
   * `visible`, if given, is called once reads through this store see them: the embedded store's at
   * once, before its group's commit (their fsync); a store that does not say resolves first.
   */
  commit(writes: readonly Write[], checkpoints?: readonly Checkpoint[], visible?: () => void): Promise<void>;
  /**
   * Deletes at most `limit` documents of the collection with `field` equal to `eq`, committed as
   * `commit` commits, and answers how many went: a deletion of thousands in steps (`deleteInSteps`)
   * that each hold the store and its caller's loop a few milliseconds.
   */
  deleteSomeWhere(collection: string, field: string, eq: string, limit: number): Promise<number>;
  checkpoint(name: string): Promise<bigint>;
  /** A writer for collections nothing reads yet (see `GenerationWriter`); closed by the caller. */
  generationWriter(): GenerationWriter;
  /** Drops every document of the collections and the named checkpoints (for a rebuild). */
  reset(collections: readonly string[], checkpointNames: readonly string[]): Promise<void>;
  /**
   * Removes the collections entirely: their documents, their indexes, and every table or view the
   * store keeps for them (a layout an earlier version made included); a missing one is skipped.
   */
  drop(collections: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
