/** Who caused a write: an API key, the operator (admin API), the scheduler or the system itself. */
export type Actor =
  | { type: 'api_key'; id: string }
  | { type: 'admin' }
  /** An operator signed in to the console: the session's public id, never its cookie. */
  | { type: 'console'; session: string }
  | { type: 'scheduler' }
  | { type: 'system' };

export type EventMetadata = Readonly<{
  organisationId: string;
  livemode: boolean;
  /** The organisation's clock when it happened (a sandbox test clock moves it). */
  businessTime: string;
  /** Wall time when the event was written. */
  recordedTime: string;
  actor: Actor;
  requestId: string | null;
  causationId: string | null;
  correlationId: string | null;
  /** Fingerprint (method, path, body) of the request that caused it, where its Idempotency-Key made it matter. */
  requestFingerprint?: string;
  /** Fingerprint of the schema the event's data was checked against when appended (`encodeEvent`); a reader with the same schema takes the data as stored. */
  dataSchema?: string;
  /**
   * A sandbox's events: the reset generation the command acted in (0 before any reset), where it
   * knew it. Read models skip what an earlier generation wrote after a later reset.
   */
  resetGeneration?: number;
}>;

export type NewEvent = Readonly<{
  /** Unique event id (uuid); lets an adapter de-duplicate a retried append. */
  id: string;
  type: string;
  version: number;
  data: unknown;
  metadata: EventMetadata;
}>;

export type StoredEvent = NewEvent &
  Readonly<{
    streamId: string;
    /** 0-based position of the event inside its stream. */
    revision: number;
    /** Position in the global log; strictly increasing in commit order. */
    position: bigint;
  }>;

/** What folding a stream needs of each event: no id, no metadata (the adapter may skip reading them). */
export type FoldedEvent = Readonly<{ type: string; version: number; data: unknown; revision: number; position: bigint }>;

/**
 * `no_stream`: the stream must not exist; a number: the revision of the stream's last event;
 * `any`: no check.
 */
export type ExpectedRevision = 'no_stream' | 'any' | number;

/**
 * The log as a store saw it at one moment (opaque to callers): a state read or appended at a mark
 * can later be known current without reading, while `unchangedSince` says so.
 */
export type StreamMark = Readonly<{ appends: number; writesElsewhere: number }>;

export type AppendResult = Readonly<{
  nextExpectedRevision: number;
  position: bigint;
  /** The stream as this append left it, where the store keeps marks. */
  mark?: StreamMark;
}>;

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

/** Told the streams just appended to, or `null` when it cannot say which (any may have changed). */
export type AppendedListener = (streamIds: readonly string[] | null) => void;

/** Whether an announcement of appends concerns one of `streams`. */
export const concerns = (appended: readonly string[] | null, streams: ReadonlySet<string>): boolean =>
  appended === null || appended.some((streamId) => streams.has(streamId));

export interface EventStore {
  /** Appends atomically: every event or none. Refuses a wrong expected revision. */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** The stream's events in order, from `fromRevision`, at most `limit` of them; empty when the stream does not exist. */
  readStream(streamId: string, fromRevision?: number, limit?: number): Promise<StoredEvent[]>;
  /**
   * The stream's events of these types, in order (a few kinds among many: a usage stream's billed
   * periods among its batches). The embedded log skips the others' rows without reading their data.
   */
  readStreamOfTypes(streamId: string, types: readonly string[]): Promise<StoredEvent[]>;
  /** The same events as `readStream`, reduced to what a fold reads (a command handler's load). */
  readStreamToFold(streamId: string, fromRevision?: number, limit?: number): Promise<FoldedEvent[]>;
  /** Up to `limit` events of the global log strictly after `after` (0n: from the start), in commit order. */
  readAll(after: bigint, limit: number): Promise<StoredEvent[]>;
  /** Position of the last event in the global log (0n when empty). */
  headPosition(): Promise<bigint>;
  /**
   * Calls `listener` whenever events may have been appended, with the ids of the streams appended to,
   * or `null` when any stream may have been (appends that may have been missed: a subscription
   * (re)confirmed); returns an unsubscribe.
   */
  onAppended(listener: AppendedListener): () => void;
  /**
   * A mark of the log now, taken before a read, for `unchangedSince`. Absent where the store cannot
   * see every writer (a server's log): a reader then always reads.
   */
  streamMark?(): StreamMark;
  /**
   * Whether the stream surely has no events beyond those a read after `mark` saw (or the append that
   * made `mark`): nothing was appended to it here since, and no other writer has committed anything.
   * False whenever it cannot tell.
   */
  unchangedSince?(streamId: string, mark: StreamMark): boolean;
  close(): Promise<void>;
}
