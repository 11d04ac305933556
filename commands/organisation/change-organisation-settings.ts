import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../deps';
import type { Caller } from '../metadata';
import { organisationCommand } from '../aggregates';

export const changeOrganisationSettings = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  changes: Partial<OrganisationSettings>,
) => organisationCommand(deps, caller, organisation, { type: 'ChangeOrganisationSettings', changes });
