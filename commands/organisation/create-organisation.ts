import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller } from '../plumbing/metadata';
import { organisationCommand } from '../plumbing/organisation-command';

export const createOrganisation = (
  deps: CommandDeps,
  caller: Caller,
  input: { organisationId: string; livemode: boolean; liveOrganisationId: string | null; settings: OrganisationSettings },
) => organisationCommand(deps, input.organisationId, { type: 'CreateOrganisation', ...input }, caller, { id: input.organisationId, livemode: input.livemode });
