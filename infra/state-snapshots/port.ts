/**
 * A stream's folded state as it stood at one revision, kept so a process that lost it (a restart,
 * or a state dropped from memory) folds only the events after it. A cache: losing one costs a fold
 * from the start, never a wrong answer, since the event at `revision` must still be at `position`.
 */
export type StateSnapshot = Readonly<{ revision: number; position: bigint; state: string }>;

/** Where snapshots are kept, one per stream (a write replaces the one before). */
export interface StateSnapshots {
  read(streamId: string): Promise<StateSnapshot | null>;
  write(streamId: string, snapshot: StateSnapshot): Promise<void>;
}
