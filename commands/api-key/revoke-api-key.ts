import { apiKeyDecider } from '../../domain/api-key/decider';
import { apiKeyStream } from '../../domain/api-key/events';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export const revokeApiKey = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  apiKeyId: string,
) =>
  handle(
    deps.store,
    apiKeyStream(apiKeyId),
    apiKeyDecider,
    { type: 'RevokeApiKey', organisationId: organisation.id },
    eventMetadata(caller, organisation, deps.clocks),
  );
