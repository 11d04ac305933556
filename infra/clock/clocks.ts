import { type Clock, systemClock } from './clock';

/**
 * Finds the clock an organisation runs on: real time (the wall clock), or a sandbox's test clock
 * standing at the instant it was last set to. `setTestClock(id, null)` returns it to real time.
 */
export type Clocks = {
  forOrganisation(organisationId: string): Clock;
  wall: Clock;
  setTestClock(organisationId: string, at: Date | null): void;
  /** The instant an organisation's test clock stands at; null when it runs on real time. */
  testClock(organisationId: string): Date | null;
  /**
   * The guard of a sandbox's clock advance, shared by whatever must not run during one (a second
   * advance, a reset): `beginAdvance` answers false when one is already running.
   */
  beginAdvance(organisationId: string): boolean;
  endAdvance(organisationId: string): void;
  advancing(organisationId: string): boolean;
};

export const realClocks = (wall: Clock = systemClock): Clocks => {
  const frozen = new Map<string, Date>();
  const advances = new Set<string>();
  return {
    forOrganisation: (organisationId) => ({
      now: () => {
        const at = frozen.get(organisationId);
        return at ? new Date(at.getTime()) : wall.now();
      },
    }),
    wall,
    setTestClock: (organisationId, at) => {
      if (at) frozen.set(organisationId, new Date(at.getTime()));
      else frozen.delete(organisationId);
    },
    testClock: (organisationId) => frozen.get(organisationId) ?? null,
    beginAdvance: (organisationId) => {
      if (advances.has(organisationId)) return false;
      advances.add(organisationId);
      return true;
    },
    endAdvance: (organisationId) => {
      advances.delete(organisationId);
    },
    advancing: (organisationId) => advances.has(organisationId),
  };
};
