import type { GenerationWriter } from '../../infra/read-store/port';
import type { Projection } from './projection';

/** One read model of a rebuild as a partition replays it: by name, and where its generation lives. */
export type PartitionBuild = Readonly<{
  projection: string;
  /** Each of its collections and the name of the generation being built. */
  names: readonly (readonly [string, string])[];
  checkpoint: string;
}>;

/** Events read at a time, documents held before a flush, documents per transaction (the runner's rebuild options). */
export type ReplaySizes = Readonly<{ batch: number; flushDocuments: number; commitSize: number }>;

/** How far the partitions have all got: the least position, and the log's events up to it. */
export type PartitionProgress = Readonly<{ position: bigint; events: number }>;

/**
 * Replays the log up to `upTo` into the builds' generations, split by read model across threads
 * (a store that can: SQLite), each thread reading only the events its read models handle and
 * committing through `writer`; resolves once all of it is committed, with the log's events up to
 * `upTo`. The runner replays what follows itself.
 */
export type RebuildPartitions = Readonly<{
  /** Below this many events a rebuild replays on the runner's own loop (a thread's start costs more). */
  fromEvents: number;
  replay(job: {
    groups: readonly (readonly PartitionBuild[])[];
    upTo: bigint;
    writer: GenerationWriter;
    sizes: ReplaySizes;
    onProgress: (progress: PartitionProgress) => void;
    /** Checked as the threads report: once true, they are ended and the replay fails. */
    stopped: () => boolean;
  }): Promise<number>;
  /** Each event type's share of the log's bytes up to `upTo`, from a sample. */
  typeShares(upTo: bigint): Promise<ReadonlyMap<string, number>>;
  /** How many threads to split into (fewer than 2: the runner replays on its own loop). */
  threads: number;
}>;

/**
 * The read models in `count` groups of about equal work, the heaviest placed first, each in the
 * group it leaves lightest. A group reads and decodes each of its event types once, and
 * each read model applies them: a read model's work in a group is its types' shares of the log not
 * yet read there, plus half of all its types' shares (its own documents).
 */
export const partitionByWork = <P extends Pick<Projection, 'handles'>>(projections: readonly P[], shares: ReadonlyMap<string, number>, count: number): P[][] => {
  const share = (types: Iterable<string>) => [...types].reduce((sum, type) => sum + (shares.get(type) ?? 0), 0);
  const added = (projection: P, read: ReadonlySet<string>) => share(projection.handles.filter((type) => !read.has(type))) + share(projection.handles) / 2;
  const groups = Array.from({ length: Math.max(1, Math.min(count, projections.length)) }, () => ({ work: 0, read: new Set<string>(), members: [] as P[] }));
  for (const projection of [...projections].sort((a, b) => added(b, new Set()) - added(a, new Set()))) {
    // Ties (types the sample did not meet weigh nothing) go to the group with fewest read models.
    const after = (group: (typeof groups)[number]) => group.work + added(projection, group.read);
    const best = groups.reduce((least, group) => (after(group) < after(least) || (after(group) === after(least) && group.members.length < least.members.length) ? group : least));
    best.work += added(projection, best.read);
    for (const type of projection.handles) best.read.add(type);
    best.members.push(projection);
  }
  return groups.map((group) => group.members).filter((members) => members.length > 0);
};
