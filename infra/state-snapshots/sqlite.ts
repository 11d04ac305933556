import { writeInGroup } from '../sqlite/group-commit';
import type { SqliteDatabase } from '../sqlite/open-database';
import type { StateSnapshot, StateSnapshots } from './port';

/** Snapshots in a table of the service's SQLite file (whichever the log: it is this process's cache), written in the connection's group commit. */
export class SqliteStateSnapshots implements StateSnapshots {
  private readonly readStmt;
  private readonly writeStmt;

  constructor(private readonly db: SqliteDatabase) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS state_snapshots (
        stream_id TEXT PRIMARY KEY,
        revision INTEGER NOT NULL,
        position TEXT NOT NULL,
        state TEXT NOT NULL
      );
    `);
    this.readStmt = db.prepare<[string], { revision: number; position: string; state: string }>('SELECT revision, position, state FROM state_snapshots WHERE stream_id = ?');
    this.writeStmt = db.prepare<[string, number, string, string]>(
      `INSERT INTO state_snapshots (stream_id, revision, position, state) VALUES (?, ?, ?, ?)
       ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, position = excluded.position, state = excluded.state`,
    );
  }

  read(streamId: string): Promise<StateSnapshot | null> {
    const row = this.readStmt.get(streamId);
    return Promise.resolve(row ? { revision: row.revision, position: BigInt(row.position), state: row.state } : null);
  }

  write(streamId: string, snapshot: StateSnapshot): Promise<void> {
    return writeInGroup(this.db, () => void this.writeStmt.run(streamId, snapshot.revision, String(snapshot.position), snapshot.state), { oneStatement: true });
  }
}
