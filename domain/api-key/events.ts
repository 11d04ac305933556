import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';
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

export const apiKeyEvents = defineEvents({
  ApiKeyCreated: created,
  ApiKeyRevoked: revoked,
});
export type ApiKeyEvent<Type extends keyof typeof apiKeyEvents = keyof typeof apiKeyEvents> = EventOf<typeof apiKeyEvents, Type>;

export const apiKeyStream = (apiKeyId: string): string => `api_key-${apiKeyId}`;
