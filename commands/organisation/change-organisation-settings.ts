import { organisationDecider } from '../../domain/organisation/decider';
import { organisationStream } from '../../domain/organisation/events';
import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export const changeOrganisationSettings = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  changes: Partial<OrganisationSettings>,
) =>
  handle(
    deps.store,
    organisationStream(organisation.id),
    organisationDecider,
    { type: 'ChangeOrganisationSettings', changes },
    eventMetadata(caller, organisation, deps.clocks),
  );
