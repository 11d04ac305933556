import type { Clocks } from '../infra/clock/clocks';
import type { Actor, EventMetadata } from '../infra/event-store/port';

/** Who is asking, carried from the edge (API request, scheduler run) into every event's metadata. */
export type Caller = Readonly<{
  actor: Actor;
  requestId: string | null;
  correlationId?: string | null;
  causationId?: string | null;
  /** The fingerprint of the request, where an Idempotency-Key makes it part of what is recorded. */
  requestFingerprint?: string;
}>;

/** The organisation a command acts for: its events carry its id and mode. */
export type OrganisationRef = Readonly<{ id: string; livemode: boolean }>;

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
  };
};
