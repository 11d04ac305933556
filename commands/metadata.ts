import type { Clocks } from '../infra/clock/clocks';
import type { Actor, EventMetadata } from '../infra/event-store/port';

/** Who is asking, carried from the edge (API request, scheduler run) into every event's metadata. */
export type Caller = Readonly<{
  actor: Actor;
  requestId: string | null;
  correlationId?: string | null;
  causationId?: string | null;
}>;

export const eventMetadata = (
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  clocks: Clocks,
): EventMetadata => ({
  organisationId: organisation.id,
  livemode: organisation.livemode,
  businessTime: clocks.forOrganisation(organisation.id).now().toISOString(),
  recordedTime: clocks.wall.now().toISOString(),
  actor: caller.actor,
  requestId: caller.requestId,
  causationId: caller.causationId ?? null,
  correlationId: caller.correlationId ?? caller.requestId,
});
