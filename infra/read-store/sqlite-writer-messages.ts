import type { MessagePort } from 'node:worker_threads';
import type { PackedWrites } from './packed-writes';
import type { Checkpoint } from './port';

/**
 * What the service asks the generation writer's thread, and its answer to each (`error` null: done).
 * `attach` hands it a port another thread sends its own requests on (answered on that port).
 */
export type WriterRequest =
  | { id: number; op: 'commit'; writes: PackedWrites; checkpoints: readonly Checkpoint[] }
  | { id: number; op: 'drop'; collections: readonly string[] }
  | { id: number; op: 'attach'; port: MessagePort }
  | { id: number; op: 'close' };
export type WriterReply = { id: number; error: string | null };
