import type { ApiKeyEvent } from '../domain/api-key/events';
import type { Scope } from '../domain/api-key/scopes';
import type { Projection } from './projection';

export const API_KEYS = 'api_keys';

/** An API key record; `_`-prefixed fields are internal and never shown. */
export type ApiKeyDoc = {
  id: string;
  object: 'api_key';
  name: string;
  scopes: Scope[];
  expires_at: string | null;
  livemode: boolean;
  status: 'active' | 'revoked';
  last4: string;
  created: string;
  _organisation: string;
  _secret_hash: string;
};

export const apiKeysProjection: Projection = {
  name: 'api_keys',
  version: 1,
  collections: [API_KEYS],
  indexes: [
    { collection: API_KEYS, fields: ['_secret_hash'] },
    { collection: API_KEYS, fields: ['_organisation', 'created'] },
  ],
  handles: ['ApiKeyCreated', 'ApiKeyRevoked'],
  apply: async (event, context) => {
    const typed = event as unknown as ApiKeyEvent;
    switch (typed.type) {
      case 'ApiKeyCreated': {
        const data = typed.data;
        const doc: ApiKeyDoc = {
          id: data.apiKeyId,
          object: 'api_key',
          name: data.name,
          scopes: data.scopes,
          expires_at: data.expiresAt,
          livemode: data.livemode,
          status: 'active',
          last4: data.last4,
          created: event.metadata.businessTime,
          _organisation: data.organisationId,
          _secret_hash: data.secretHash,
        };
        context.put(API_KEYS, doc);
        return;
      }
      case 'ApiKeyRevoked': {
        const doc = await context.get<ApiKeyDoc>(API_KEYS, typed.data.apiKeyId);
        if (doc) context.put(API_KEYS, { ...doc, status: 'revoked' });
        return;
      }
      default: {
        const exhaustive: never = typed;
        return exhaustive;
      }
    }
  },
};
