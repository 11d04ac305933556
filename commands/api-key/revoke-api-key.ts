import { apiKeyHandler } from '../aggregates';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

export const revokeApiKey = (deps: CommandDeps, caller: Caller, organisation: OrganisationRef, apiKeyId: string) =>
  apiKeyHandler(deps, caller, organisation, apiKeyId, { type: 'RevokeApiKey', organisationId: organisation.id });
