import type { OrganisationSettings } from '../../domain/organisation/settings';
import type { CommandDeps } from '../deps';
import type { Caller } from '../metadata';
import { organisationCommand } from '../aggregates';

export const createOrganisation = (
  deps: CommandDeps,
  caller: Caller,
  input: { organisationId: string; livemode: boolean; liveOrganisationId: string | null; settings: OrganisationSettings },
) => organisationCommand(deps, caller, { id: input.organisationId, livemode: input.livemode }, { type: 'CreateOrganisation', ...input });
