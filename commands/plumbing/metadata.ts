import type { Clocks } from '../../infra/clock/clocks';
import type { Actor, EventMetadata } from '../../infra/event-store/port';

/** Who is asking, carried from the edge (API request, scheduler run) into every event's metadata. */
export type Caller = Readonly<{
  actor: Actor;
  requestId: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  /** The fingerprint of the request, where an Idempotency-Key makes it part of what is recorded. */
  requestFingerprint?: string;
}>;

/**
 * The organisation a command acts for: its events carry its id and mode, and a sandbox's the reset
 * generation the command acted in, where it read it (what it creates belongs to that generation).
 */
export type OrganisationRef = Readonly<{ id: string; livemode: boolean; resetGeneration?: number }>;

/** The ref of an organisation the command loaded, with its reset generation. */
export const refOf = (organisation: Readonly<{ organisationId: string; livemode: boolean; resetGeneration: number }>): OrganisationRef => ({
  id: organisation.organisationId,
  livemode: organisation.livemode,
  resetGeneration: organisation.resetGeneration,
});

export const eventMetadata = (caller: Caller, organisation: OrganisationRef, clocks: Clocks): EventMetadata => {
  // One reading of the wall clock: on real time the two are the same instant, not two reads a millisecond apart.
  const recordedTime = clocks.wall.now().toISOString();
  return {
    organisationId: organisation.id,
    livemode: organisation.livemode,
    businessTime: clocks.testClock(organisation.id)?.toISOString() ?? recordedTime,
    recordedTime,
    actor: caller.actor,
    requestId: caller.requestId,
    causationId: caller.causationId ?? null,
    correlationId: caller.correlationId ?? caller.requestId,
    ...(caller.requestFingerprint !== undefined ? { requestFingerprint: caller.requestFingerprint } : {}),
    ...(!organisation.livemode && organisation.resetGeneration !== undefined ? { resetGeneration: organisation.resetGeneration } : {}),
  };
};
