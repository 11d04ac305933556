import { apiKeyCommand } from '../api-key/api-key-command';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

export const revokeApiKey = (deps: CommandDeps, caller: Caller, organisation: OrganisationRef, apiKeyId: string) =>
  apiKeyCommand(deps, apiKeyId, { type: 'RevokeApiKey', organisationId: organisation.id }, caller, organisation);
