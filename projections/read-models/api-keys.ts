import { z } from 'zod';
import type { ApiKeyEvent } from '../../domain/api-key/events';
import { SCOPES } from '../../domain/api-key/scopes';
import type { Projection } from '../engine/projection';

export const API_KEYS = 'api_keys';

/** An API key record: the ApiKey object of the API document plus internal (`_`-prefixed, never shown) fields. */
export const apiKeyDocument = z.object({
  id: z.string(),
  object: z.literal('api_key'),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  expires_at: z.string().nullable(),
  livemode: z.boolean(),
  status: z.enum(['active', 'revoked']),
  last4: z.string(),
  created: z.string(),
  _organisation: z.string(),
  _secret_hash: z.string(),
});
export type ApiKeyDoc = z.infer<typeof apiKeyDocument>;

export const apiKeysProjection: Projection<ApiKeyEvent> = {
  name: 'api_keys',
  version: 1,
  collections: [API_KEYS],
  indexes: [
    { collection: API_KEYS, fields: ['_secret_hash'] },
    { collection: API_KEYS, fields: ['_organisation', 'created'] },
  ],
  handles: ['ApiKeyCreated', 'ApiKeyRevoked'],
  apply: async (event, context) => {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const data = event.data;
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
        const doc = await context.get<ApiKeyDoc>(API_KEYS, event.data.apiKeyId);
        if (doc) context.put(API_KEYS, { ...doc, status: 'revoked' });
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
};
