import type { EventMetadata } from '../../infra/event-store/port';
import type { ReadStore } from '../../infra/read-store/port';
import { SANDBOX_GENERATIONS, type SandboxGenerationDoc } from './organisations';

/**
 * The highest reset generation seen of each sandbox, from its resets and from the generation its
 * events were decided in (`metadata.resetGeneration`), so a follower of the log can tell a write of
 * an earlier generation that landed after a later reset: a process that read the sandbox's
 * generation just before another process reset it appends just after (within one process, a
 * sandbox's writes and resets take turns). Whatever such a write made, the reset removed, or would
 * have had it come first, so skipping it leaves what applying it would; and a follower replaying
 * from the start may share what a live one has seen. Kept in memory: a follower that resumes from
 * a checkpoint first learns the generations recorded before it (from the organisations' read
 * model, `learnFrom`, or a snapshot), as it would have from the resets it read then. One is shared
 * by every read model a reset empties: what one has seen, the others may skip by.
 */
export class SandboxGenerations {
  private readonly latest = new Map<string, number>();
  /** Per read of the organisations' read model (a runner's live view), its one read. */
  private readonly learnt = new WeakMap<object, Promise<void>>();

  reset(organisationId: string, generation: number): void {
    if (generation > (this.latest.get(organisationId) ?? 0)) this.latest.set(organisationId, generation);
  }

  /** The generations the organisations' read model holds, read once however many read models resume through `live`. */
  learnFrom(live: Pick<ReadStore, 'findAll'>): Promise<void> {
    let reading = this.learnt.get(live);
    if (!reading) {
      reading = live.findAll<SandboxGenerationDoc>(SANDBOX_GENERATIONS).then((docs) => {
        for (const { id, generation } of docs) this.reset(id, generation);
      });
      this.learnt.set(live, reading);
      // A failed read is tried again by the next resume.
      reading.catch(() => this.learnt.delete(live));
    }
    return reading;
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
