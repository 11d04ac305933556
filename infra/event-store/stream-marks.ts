import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../sqlite/open-database';
import { RecentlyUsed } from '../recently-used';
import type { StreamMark } from './port';

/** Streams whose last append on a connection is remembered; the oldest are forgotten past this. */
const REMEMBERED_STREAMS = 20_000;

/**
 * What a connection knows of its log's changes, so that a state it read (or appended) can be known
 * current without reading the stream again: it counts its own appends, remembering each stream's
 * last, and SQLite's `data_version` moves when any other connection commits (another process, a
 * thread's connection; its own commits and PASSIVE checkpoints leave it as it is). One per
 * connection, whichever store instances share it.
 */
export class StreamMarks {
  private appends = 0;
  private readonly lastAppend: RecentlyUsed<string, number>;
  /** The last append count of a stream forgotten: a mark from before it cannot tell whether its stream changed since. */
  private forgottenThrough = 0;
  private readonly dataVersion: Statement<[], number>;

  constructor(db: SqliteDatabase, capacity = REMEMBERED_STREAMS) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.lastAppend = new RecentlyUsed(capacity, (_stream, at) => {
      this.forgottenThrough = at;
    });
  }

  now(): StreamMark {
    return { appends: this.appends, writesElsewhere: this.dataVersion.get()! };
  }

  /**
   * Counts an append to the stream, inside its transaction after its rows (the connection then holds
   * the write lock: nobody else commits before it does), and answers the stream's mark as it leaves it.
   */
  appended(streamId: string): StreamMark {
    this.lastAppend.set(streamId, ++this.appends);
    return this.now();
  }

  unchangedSince(streamId: string, mark: StreamMark): boolean {
    const last = this.lastAppend.get(streamId);
    const appendedSince = last === undefined ? mark.appends < this.forgottenThrough : last > mark.appends;
    return !appendedSince && this.dataVersion.get() === mark.writesElsewhere;
  }
}

const marks = new WeakMap<SqliteDatabase, StreamMarks>();

export const streamMarksOf = (db: SqliteDatabase): StreamMarks => {
  let found = marks.get(db);
  if (!found) marks.set(db, (found = new StreamMarks(db)));
  return found;
};
