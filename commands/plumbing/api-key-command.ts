import { apiKeyDecider } from '../../domain/api-key/decider';
import { apiKeyStream } from '../../domain/api-key/events';
import { boundHandler } from './bound-handler';

export const apiKeyCommand = boundHandler(apiKeyDecider, apiKeyStream);
