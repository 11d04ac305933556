import type { PackedWrites } from './packed-writes';
import type { Checkpoint, IndexSpec } from './port';

/** What the service asks the generation writer's thread, and its answer to each (`error` null: done). */
export type WriterRequest =
  | { id: number; op: 'commit'; writes: PackedWrites; checkpoints: readonly Checkpoint[] }
  | { id: number; op: 'ensureIndexes'; indexes: readonly IndexSpec[] }
  | { id: number; op: 'close' };
export type WriterReply = { id: number; error: string | null };
