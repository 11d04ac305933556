import type { MessagePort } from 'node:worker_threads';
import type { PartitionBuild, PartitionProgress, ReplaySizes } from '../projections/engine/rebuild-partitions';

/** What a rebuild partition's thread is started with (`rebuild-partition-thread.ts`). */
export type PartitionData = Readonly<{ file: string; group: readonly PartitionBuild[]; upTo: bigint; sizes: ReplaySizes; port: MessagePort }>;

/** What it tells the service: how far it has got, and (`done`) that all it wrote is committed. */
export type PartitionMessage = Readonly<{ op: 'progress' | 'done' } & PartitionProgress>;
