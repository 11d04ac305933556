/**
 * A backup is one SQLite file: a consistent copy of the data directory's database, with two tables
 * of its own beside the service's. `billing_backup` says what it is (so a restore refuses any other
 * file) and the event position it holds; `billing_backup_files` holds the other files a data
 * directory needs, each whole, by their name in it: the demonstration accounting system's ledger
 * (itself copied online) and the generated admin token. The usage id index's snapshot is left
 * out: a start on the restored directory reads the log to make it again.
 */
export const BACKUP_FORMAT = 'subscription-billing-engine backup';
export const BACKUP_VERSION = 1;

export const MANIFEST_TABLE = 'billing_backup';
export const FILES_TABLE = 'billing_backup_files';

export type Manifest = Readonly<{ format: string; version: number; created_at: string; event_position: number; source: string }>;

/** An operator command's refusal: one line saying why, and the command's exit status. Nothing was written. */
export class Refused extends Error {
  override name = 'Refused';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
