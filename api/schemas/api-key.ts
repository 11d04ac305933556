import { z } from 'zod';
import { SCOPES } from '../../domain/api-key/scopes';
import { apiKeyDocument } from '../../projections/api-keys';

export const createApiKeyBody = z.strictObject({
  name: z.string().min(1).max(255),
  scopes: z
    .array(z.enum(SCOPES))
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional().describe('ISO 8601; omitted or null: never'),
});

export const apiKeyObject = apiKeyDocument.omit({ _organisation: true, _secret_hash: true }).meta({ id: 'ApiKey' });

export const createdApiKeyObject = apiKeyObject
  .extend({ key: z.string().describe('The secret; shown only in this answer') })
  .meta({ id: 'CreatedApiKey' });

export const sandboxCopyBody = z.strictObject({
  copy: z
    .strictObject({
      settings: z.boolean().default(true),
      catalogue: z.boolean().default(true),
      customers: z.boolean().default(false),
      subscriptions: z.boolean().default(false),
    })
    .default({ settings: true, catalogue: true, customers: false, subscriptions: false }),
});
