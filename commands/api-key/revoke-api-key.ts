import { apiKeyCommand } from '../plumbing/api-key-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

export const revokeApiKey = (deps: CommandDeps, caller: Caller, organisation: OrganisationRef, apiKeyId: string) =>
  apiKeyCommand(deps, apiKeyId, { type: 'RevokeApiKey', organisationId: organisation.id }, caller, organisation);
