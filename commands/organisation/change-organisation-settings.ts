import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller } from '../plumbing/metadata';
import { organisationCommand } from '../plumbing/organisation-command';

export const changeOrganisationSettings = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  changes: Partial<OrganisationSettings>,
) => organisationCommand(deps, organisation.id, { type: 'ChangeOrganisationSettings', changes }, caller, organisation);
