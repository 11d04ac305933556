import type { CatalogueStatus } from '../../domain/catalogue/types';
import { planDecider } from '../../domain/plan/decider';
import { planStream } from '../../domain/plan/events';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export const updatePlan = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  planId: string,
  changes: { status?: CatalogueStatus; name?: string },
) =>
  handle(
    deps.store,
    planStream(planId),
    planDecider,
    { type: 'UpdatePlan', organisationId: organisation.id, changes },
    eventMetadata(caller, organisation, deps.clocks),
  );
