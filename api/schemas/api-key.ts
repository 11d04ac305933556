import { z } from 'zod';
import type { createApiKey } from '../../commands/api-key/create-api-key';
import { SCOPES } from '../../domain/api-key/scopes';
import { apiKeyDocument } from '../../projections/read-models/api-keys';

export const createApiKeyBody = z.strictObject({
  name: z.string().min(1).max(255),
  scopes: z
    .array(z.enum(SCOPES))
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional().describe('ISO 8601; omitted or null: never'),
});

export const toApiKeyInput = (body: z.infer<typeof createApiKeyBody>): Parameters<typeof createApiKey>[3] => ({
  name: body.name,
  scopes: body.scopes,
  expiresAt: body.expires_at ? new Date(body.expires_at).toISOString() : null,
});

export const apiKeyObject = apiKeyDocument.omit({ _organisation: true, _secret_hash: true }).meta({ id: 'ApiKey' });

export const createdApiKeyObject = apiKeyObject
  .extend({ key: z.string().describe('The secret; shown only in this answer') })
  .meta({ id: 'CreatedApiKey' });
