import type { EventMetadata } from '../infra/event-store/port';

/**
 * The highest reset generation seen of each sandbox, from its resets and from the generation its
 * events were decided in (`metadata.resetGeneration`), so a follower of the log can tell a write of
 * an earlier generation that landed after a later reset: a process that read the sandbox's
 * generation just before another process reset it appends just after (within one process, a
 * sandbox's writes and resets take turns). Whatever such a write made, the reset removed, or would
 * have had it come first, so skipping it leaves what applying it would; and a follower replaying
 * from the start may share what a live one has seen. Kept in memory: a follower that resumes from
 * a checkpoint first learns the generations recorded before it (`reset`, from the organisations'
 * read model or a snapshot), as it would have from the resets it read then.
 */
export class SandboxGenerations {
  private readonly latest = new Map<string, number>();

  reset(organisationId: string, generation: number): void {
    if (generation > (this.latest.get(organisationId) ?? 0)) this.latest.set(organisationId, generation);
  }

  /** Each sandbox's highest generation: what a follower's snapshot keeps. */
  entries(): [string, number][] {
    return [...this.latest];
  }

  /** Whether the event was decided in a sandbox generation a later reset ended (and, if not, its generation is learnt). */
  outdated({ organisationId, livemode, resetGeneration }: EventMetadata): boolean {
    if (livemode || resetGeneration === undefined) return false;
    if (resetGeneration < (this.latest.get(organisationId) ?? 0)) return true;
    this.reset(organisationId, resetGeneration);
    return false;
  }
}
