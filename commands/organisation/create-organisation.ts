import { organisationDecider } from '../../domain/organisation/decider';
import { organisationStream } from '../../domain/organisation/events';
import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export const createOrganisation = (
  deps: CommandDeps,
  caller: Caller,
  input: { organisationId: string; livemode: boolean; liveOrganisationId: string | null; settings: OrganisationSettings },
) =>
  handle(
    deps.store,
    organisationStream(input.organisationId),
    organisationDecider,
    { type: 'CreateOrganisation', ...input },
    eventMetadata(caller, { id: input.organisationId, livemode: input.livemode }, deps.clocks),
  );
