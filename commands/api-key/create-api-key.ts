import type { Scope } from '../../domain/api-key/scopes';
import { newApiKeySecret } from '../../infra/api-key-secret';
import { newId } from '../../infra/ids';
import { apiKeyCommand } from '../plumbing/api-key-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

/** Creates a key and returns its secret, which exists only in this answer. */
export const createApiKey = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: { name: string; scopes: Scope[]; expiresAt: string | null },
) => {
  const apiKeyId = newId('apiKey');
  const { key, secretHash, last4 } = newApiKeySecret(organisation.livemode);
  const { position } = await apiKeyCommand(deps, apiKeyId, {
    type: 'CreateApiKey',
    now: deps.clocks.forOrganisation(organisation.id).now().toISOString(),
    apiKeyId,
    organisationId: organisation.id,
    livemode: organisation.livemode,
    name: input.name,
    scopes: input.scopes,
    expiresAt: input.expiresAt,
    secretHash,
    last4,
  }, caller, organisation);
  return { apiKeyId, key, position };
};
