/**
 * Named leases: at most one holder of a name at a time, for a short time that the holder keeps
 * renewing while it works. A holder that dies stops renewing, and its lease lapses so another takes
 * over. The service uses them so that only one process of the production stack runs each
 * projection, log follower and poller (and the scheduler); `whileLeased` does the renewing.
 */
export interface Leases {
  readonly kind: 'redis' | 'embedded';
  /** Takes the lease `name` for `holder` for `ttlMs`, or renews it when `holder` has it; false while another holds it. */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `holder` has it. */
  release(name: string, holder: string): Promise<void>;
}

/** Short, so a dead holder's work is taken over within seconds; renewed every third of it. */
export const DEFAULT_LEASE_MS = 5_000;
