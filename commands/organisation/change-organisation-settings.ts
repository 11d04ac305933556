import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../deps';
import type { Caller } from '../metadata';
import { organisationCommand } from '../organisation/organisation-command';

export const changeOrganisationSettings = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  changes: Partial<OrganisationSettings>,
) => organisationCommand(deps, organisation.id, { type: 'ChangeOrganisationSettings', changes }, caller, organisation);
