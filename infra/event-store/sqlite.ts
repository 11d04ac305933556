import type { SqliteDatabase } from '../sqlite/open-database';
import { writeInGroup } from '../sqlite/group-commit';
import {
  type AppendedListener,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type FoldedEvent,
  type NewEvent,
  type StoredEvent,
  type StreamMark,
  WrongExpectedRevision,
} from './port';
import { RecentEvents } from './recent-events';
import { StreamMarks, streamMarksOf } from './stream-marks';

/** An event's columns, read as an array (no row object to build and throw away). */
type Row = [globalPosition: number, streamId: string, streamPosition: number, eventId: string, type: string, version: number, data: string, metadata: string];
const COLUMNS = 'global_position, stream_id, stream_position, event_id, type, version, data, metadata';

/**
 * A stored event whose `data` is parsed when first read: a log follower reads every event and skips
 * those it does not handle (both worker outboxes skip a usage batch's, about 5 KB of JSON each).
 * `data` is an own enumerable accessor (a spread or a deep equality sees it as a field), the same
 * one for every event: an object literal with a getter of its own made every event a shape of its
 * own, and every reader of events slow (a rebuild's decode and projections: +50 % main-thread CPU).
 */
class LazyStoredEvent {
  readonly id: string;
  readonly streamId: string;
  readonly revision: number;
  readonly position: bigint;
  readonly type: string;
  readonly version: number;
  declare readonly data: unknown;
  readonly metadata: StoredEvent['metadata'];
  #text: string | null;
  #parsed: unknown;

  private static readonly data: PropertyDescriptor = {
    enumerable: true,
    get(this: LazyStoredEvent) {
      return this.#data();
    },
  };

  constructor([globalPosition, streamId, revision, id, type, version, data, metadata]: Row) {
    this.id = id;
    this.streamId = streamId;
    this.revision = revision;
    this.position = BigInt(globalPosition);
    this.type = type;
    this.version = version;
    this.#text = data;
    Object.defineProperty(this, 'data', LazyStoredEvent.data);
    this.metadata = JSON.parse(metadata) as StoredEvent['metadata'];
  }

  #data(): unknown {
    if (this.#text !== null) {
      this.#parsed = JSON.parse(this.#text) as unknown;
      this.#text = null;
    }
    return this.#parsed;
  }
}

const toStored = (row: Row): StoredEvent => new LazyStoredEvent(row);

/** A fold's columns, read as arrays (no row object, no metadata): about a third of a `SELECT *` of a long stream. */
type FoldRow = [globalPosition: number, streamPosition: number, type: string, version: number, data: string];

const toFolded = ([globalPosition, revision, type, version, data]: FoldRow): FoldedEvent => ({
  type,
  version,
  data: JSON.parse(data) as unknown,
  revision,
  position: BigInt(globalPosition),
});

/** Told, inside an append's transaction, of its events of the types it asked for (see `onAppending`). */
export type AppendingListener = Readonly<{ types: ReadonlySet<string>; appending: (event: StoredEvent) => void }>;

/** The embedded event log: one table in the SQLite file; each append a savepoint of the connection's group commit. */
export class SqliteEventStore implements EventStore {
  private readonly listeners = new Set<AppendedListener>();
  private readonly appendingListeners = new Set<AppendingListener>();
  private readonly statements;
  /** What this process's appends committed last: the followers' `readAll` takes it from here. */
  private readonly recent = new RecentEvents();
  private readonly marks: StreamMarks;

  constructor(private readonly db: SqliteDatabase) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        global_position INTEGER PRIMARY KEY AUTOINCREMENT,
        stream_id TEXT NOT NULL,
        stream_position INTEGER NOT NULL,
        event_id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        UNIQUE (stream_id, stream_position)
      );
    `);
    db.defaultSafeIntegers(false);
    this.marks = streamMarksOf(db);
    this.statements = {
      lastRevision: db.prepare<[string], { rev: number | null }>(
        'SELECT MAX(stream_position) AS rev FROM events WHERE stream_id = ?',
      ),
      insert: db.prepare(
        `INSERT INTO events (stream_id, stream_position, event_id, type, version, data, metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      readStream: db
        .prepare<[string, number, number], Row>(`SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND stream_position >= ? ORDER BY stream_position LIMIT ?`)
        .raw(true),
      readStreamOfTypes: db
        .prepare<[string, string], Row>(
          `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND type IN (SELECT value FROM json_each(?)) ORDER BY stream_position`,
        )
        .raw(true),
      readStreamToFold: db
        .prepare<[string, number, number], FoldRow>(
          `SELECT global_position, stream_position, type, version, data FROM events
           WHERE stream_id = ? AND stream_position >= ? ORDER BY stream_position LIMIT ?`,
        )
        .raw(true),
      readAll: db
        .prepare<[number, number], Row>(`SELECT ${COLUMNS} FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?`)
        .raw(true),
      head: db.prepare<[], { head: number | null }>('SELECT MAX(global_position) AS head FROM events'),
      readTypes: db
        .prepare<[number, number, string, number], Row>(
          `SELECT ${COLUMNS} FROM events WHERE global_position > ? AND global_position <= ? AND type IN (SELECT value FROM json_each(?)) ORDER BY global_position LIMIT ?`,
        )
        .raw(true),
      countBetween: db.prepare<[number, number], { count: number }>('SELECT COUNT(*) AS count FROM events WHERE global_position > ? AND global_position <= ?'),
      typeAt: db.prepare<[number], { type: string; bytes: number }>(
        'SELECT type, length(data) + length(metadata) AS bytes FROM events WHERE global_position >= ? ORDER BY global_position LIMIT 1',
      ),
    };
  }

  /**
   * An append's statements; atomic in the savepoint (or transaction) `writeInGroup` runs it in. Its
   * rows, as `readAll` would read them back, go to `rows`.
   */
  private readonly appendTx = (streamId: string, events: readonly NewEvent[], expected: ExpectedRevision, rows: Row[]): AppendResult => {
    // A stream's first events need no look for its last revision: the log's unique (stream, position)
    // refuses the first of them if the stream exists, and only then is the revision read, for the refusal.
    const first = expected === 'no_stream' && events.length > 0;
    const last = first ? null : this.lastRevision(streamId);
    const actual = last === null ? 'no_stream' : last;
    if (expected === 'no_stream' ? actual !== 'no_stream' : expected !== 'any' && expected !== actual) {
      throw new WrongExpectedRevision(streamId, expected, actual);
    }
    let revision = last ?? -1;
    let position = 0n;
    for (const event of events) {
      revision += 1;
      const data = JSON.stringify(event.data);
      const metadata = JSON.stringify(event.metadata);
      let info;
      try {
        info = this.statements.insert.run(streamId, revision, event.id, event.type, event.version, data, metadata);
      } catch (error) {
        const found = first && revision === 0 ? this.lastRevision(streamId) : null;
        if (found !== null) throw new WrongExpectedRevision(streamId, expected, found);
        throw error;
      }
      position = BigInt(info.lastInsertRowid);
      rows.push([Number(info.lastInsertRowid), streamId, revision, event.id, event.type, event.version, data, metadata]);
      for (const listener of this.appendingListeners) {
        if (listener.types.has(event.type)) listener.appending({ ...event, streamId, revision, position });
      }
    }
    return { nextExpectedRevision: revision, position, mark: this.marks.appended(streamId) };
  };

  private lastRevision(streamId: string): number | null {
    return this.statements.lastRevision.get(streamId)?.rev ?? null;
  }

  /** Checked against `expected` in a savepoint of the connection's group commit; resolves (and tells the listeners) once committed. */
  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const rows: Row[] = [];
    const result = await writeInGroup(
      this.db,
      () => this.appendTx(streamId, events, expected, rows),
      { onCommitted: () => this.recent.committed(rows.map(toStored)) },
    );
    if (events.length > 0) for (const listener of this.listeners) listener([streamId]);
    return result;
  }

  readStream(streamId: string, fromRevision = 0, limit?: number): Promise<StoredEvent[]> {
    // A negative LIMIT is none.
    return Promise.resolve(this.statements.readStream.all(streamId, fromRevision, limit ?? -1).map(toStored));
  }

  readStreamOfTypes(streamId: string, types: readonly string[]): Promise<StoredEvent[]> {
    return Promise.resolve(this.statements.readStreamOfTypes.all(streamId, JSON.stringify(types)).map(toStored));
  }

  readStreamToFold(streamId: string, fromRevision = 0, limit?: number): Promise<FoldedEvent[]> {
    return Promise.resolve(this.statements.readStreamToFold.all(streamId, fromRevision, limit ?? -1).map(toFolded));
  }

  /** Up to `limit` events of these types after `after` and up to `upTo`, in order: a replay of some read models skips the others' rows unread. */
  readTypes(after: bigint, upTo: bigint, types: readonly string[], limit: number): StoredEvent[] {
    return this.statements.readTypes.all(Number(after), Number(upTo), JSON.stringify(types), limit).map(toStored);
  }

  /** How many events the log holds after `after` and up to `upTo`. */
  countBetween(after: bigint, upTo: bigint): number {
    return this.statements.countBetween.get(Number(after), Number(upTo))!.count;
  }

  /** The type and size (its JSON's length) of `size` events spread evenly over the log up to `upTo`: a sample of its make-up. */
  sampleTypes(upTo: bigint, size: number): { type: string; bytes: number }[] {
    const sample: { type: string; bytes: number }[] = [];
    for (let i = 0; i < size; i++) {
      const row = this.statements.typeAt.get(Math.floor(((i + 0.5) * Number(upTo)) / size));
      if (row) sample.push(row);
    }
    return sample;
  }

  readAll(after: bigint, limit: number): Promise<StoredEvent[]> {
    return Promise.resolve(this.recent.take(after, limit) ?? this.statements.readAll.all(Number(after), limit).map(toStored));
  }

  headPosition(): Promise<bigint> {
    return Promise.resolve(BigInt(this.statements.head.get()?.head ?? 0));
  }

  /**
   * A transactional outbox's hook: `appending` runs inside the append's transaction for each of its
   * events of the given types, so what it writes on this connection commits with the append or not
   * at all, and a throw fails the append.
   */
  onAppending(listener: AppendingListener): () => void {
    this.appendingListeners.add(listener);
    return () => this.appendingListeners.delete(listener);
  }

  streamMark(): StreamMark {
    return this.marks.now();
  }

  unchangedSince(streamId: string, mark: StreamMark): boolean {
    return this.marks.unchangedSince(streamId, mark);
  }

  onAppended(listener: AppendedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    this.appendingListeners.clear();
    return Promise.resolve();
  }
}
