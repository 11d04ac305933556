import { Database } from './driver';

/** Pages each step of the copy moves: about 4 MB at SQLite's default page size, a few milliseconds of work. */
export const PAGES_PER_STEP = 1_000;

export type CopyProgress = Readonly<{ copiedPages: number; totalPages: number }>;

/**
 * Copies a live SQLite file to `destination` with SQLite's online backup API, `PAGES_PER_STEP` at a
 * time, while other processes keep writing to it. The copy is consistent: one read transaction on
 * the source is held from the first step to the last, so every step reads the same snapshot (in
 * WAL mode a reader never blocks a writer; without it, a write by another connection would
 * restart the copy, and under a steady load it would never end). Every commit made before the
 * copy began is in it. Runs in the calling process, never on the service's loop.
 */
export const copyOnline = async (source: string, destination: string, onProgress?: (progress: CopyProgress) => void): Promise<CopyProgress> => {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN');
    // The snapshot is taken by the first read, here, before any page is copied.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    const { totalPages, remainingPages } = await db.backup(destination, {
      progress: ({ totalPages: total, remainingPages: left }) => {
        onProgress?.({ copiedPages: total - left, totalPages: total });
        return PAGES_PER_STEP;
      },
    });
    db.exec('COMMIT');
    const done = { copiedPages: totalPages - remainingPages, totalPages };
    // The backup's last step resolves without a progress call.
    onProgress?.(done);
    return done;
  } finally {
    db.close();
  }
};
