import { z } from 'zod';
import type { EventDefinition } from '../shared/event-definition';
import { SCOPES } from './scopes';

const created = z.object({
  apiKeyId: z.string(),
  organisationId: z.string(),
  livemode: z.boolean(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  expiresAt: z.string().nullable(),
  /** SHA-256 of the secret part (after the mode prefix); the secret itself is never stored. */
  secretHash: z.string(),
  /** The last four characters, so an operator can tell keys apart. */
  last4: z.string(),
});

const revoked = z.object({ apiKeyId: z.string(), organisationId: z.string() });

export type ApiKeyCreated = { type: 'ApiKeyCreated'; data: z.infer<typeof created> };
export type ApiKeyRevoked = { type: 'ApiKeyRevoked'; data: z.infer<typeof revoked> };
export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked;

export const apiKeyEventDefinitions: EventDefinition[] = [
  { type: 'ApiKeyCreated', version: 1, schema: created },
  { type: 'ApiKeyRevoked', version: 1, schema: revoked },
];

export const apiKeyStream = (apiKeyId: string): string => `api_key-${apiKeyId}`;
