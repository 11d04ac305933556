import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { ApiKeyEvent } from './events';

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active' | 'revoked'; apiKeyId: string; organisationId: string };

export type ApiKeyCommand =
  | ({ type: 'CreateApiKey'; now: string } & ApiKeyEvent<'ApiKeyCreated'>['data'])
  | { type: 'RevokeApiKey'; organisationId: string };

const notFound = () => new DomainError('not_found', 'api_key_not_found', 'No such API key.', 'id');

const evolve = (state: ApiKeyState, event: ApiKeyEvent): ApiKeyState => {
  switch (event.type) {
    case 'ApiKeyCreated':
      return { status: 'active', apiKeyId: event.data.apiKeyId, organisationId: event.data.organisationId };
    case 'ApiKeyRevoked':
      return state.status === 'none' ? state : { ...state, status: 'revoked' };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const decide = (command: ApiKeyCommand, state: ApiKeyState): ApiKeyEvent[] => {
  switch (command.type) {
    case 'CreateApiKey': {
      if (state.status !== 'none') throw new DomainError('conflict', 'api_key_exists', 'This API key already exists.');
      if (command.expiresAt !== null && command.expiresAt <= command.now) {
        throw new DomainError('invalid', 'invalid_parameter', 'expires_at must be in the future.', 'expires_at');
      }
      const { type: _type, now: _now, ...data } = command;
      return [{ type: 'ApiKeyCreated', data }];
    }
    case 'RevokeApiKey':
      if (state.status === 'none' || state.organisationId !== command.organisationId) throw notFound();
      // Revoking twice is harmless: the key is revoked either way.
      if (state.status === 'revoked') return [];
      return [{ type: 'ApiKeyRevoked', data: { apiKeyId: state.apiKeyId, organisationId: state.organisationId } }];
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
