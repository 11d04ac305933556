import { apiKeyDecider } from '../../domain/api-key/decider';
import { apiKeyStream } from '../../domain/api-key/events';
import type { Scope } from '../../domain/api-key/scopes';
import { newApiKeySecret } from '../../infra/api-key-secret';
import { newId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

/** Creates a key and returns its secret, which exists only in this answer. */
export const createApiKey = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  input: { name: string; scopes: Scope[]; expiresAt: string | null },
) => {
  const apiKeyId = newId('apiKey');
  const { key, secretHash, last4 } = newApiKeySecret(organisation.livemode);
  const metadata = eventMetadata(caller, organisation, deps.clocks);
  const { position } = await handle(
    deps.store,
    apiKeyStream(apiKeyId),
    apiKeyDecider,
    {
      type: 'CreateApiKey',
      now: metadata.businessTime,
      apiKeyId,
      organisationId: organisation.id,
      livemode: organisation.livemode,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
      secretHash,
      last4,
    },
    metadata,
  );
  return { apiKeyId, key, position };
};
