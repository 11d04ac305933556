import { perStore } from '../plumbing/per-store';

type Gate = { writes: number; reset: Promise<void> | null; drained: (() => void) | null };

/**
 * A sandbox's writes and its resets, in this process, one side at a time: a reset waits for the
 * writes under way to finish, and writes that come meanwhile wait for the reset. Without it, a write
 * that read the sandbox's generation before a reset could append after it, making an object of the
 * generation before that the reset's read models never remove (an append cannot be made
 * conditional on a second stream). Processes sharing one log still meet only in the log.
 */
export class SandboxWriteGate {
  private readonly gates = new Map<string, Gate>();

  /** Waits for any reset of the organisation, then counts a write under way; call the function returned when it is done. */
  async enter(organisationId: string): Promise<() => void> {
    for (let gate = this.gateOf(organisationId); gate.reset; gate = this.gateOf(organisationId)) await gate.reset;
    const gate = this.gateOf(organisationId);
    gate.writes++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      gate.writes--;
      if (gate.writes === 0) gate.drained?.();
      this.forgetIdle(organisationId, gate);
    };
  }

  /** Runs the reset once the writes under way are done, new writes and resets waiting for it. */
  async resetting<T>(organisationId: string, reset: () => Promise<T>): Promise<T> {
    for (let gate = this.gateOf(organisationId); gate.reset; gate = this.gateOf(organisationId)) await gate.reset;
    const gate = this.gateOf(organisationId);
    let done!: () => void;
    gate.reset = new Promise<void>((resolve) => (done = resolve));
    try {
      if (gate.writes > 0) await new Promise<void>((resolve) => (gate.drained = resolve));
      return await reset();
    } finally {
      gate.reset = null;
      gate.drained = null;
      this.forgetIdle(organisationId, gate);
      done();
    }
  }

  private gateOf(organisationId: string): Gate {
    let gate = this.gates.get(organisationId);
    if (!gate) this.gates.set(organisationId, (gate = { writes: 0, reset: null, drained: null }));
    return gate;
  }

  private forgetIdle(organisationId: string, gate: Gate): void {
    if (gate.writes === 0 && gate.reset === null && this.gates.get(organisationId) === gate) this.gates.delete(organisationId);
  }
}

/** The one gate for a log's sandboxes in this process. */
export const sandboxWriteGateOf = perStore(() => new SandboxWriteGate());
