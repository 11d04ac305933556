import { hash as digest } from 'node:crypto';
import { randomBase62 } from './ids';

const PREFIXES = { live: 'service_live_', test: 'service_test_' } as const;
const BODY = /^[0-9A-Za-z]{32}$/;

const hash = (body: string): string => digest('sha256', body, 'hex');

/** A new secret: the mode prefix and 32 random base62 characters. Only its hash is kept. */
export const newApiKeySecret = (livemode: boolean): { key: string; secretHash: string; last4: string } => {
  const body = randomBase62(32);
  return { key: `${livemode ? PREFIXES.live : PREFIXES.test}${body}`, secretHash: hash(body), last4: body.slice(-4) };
};

/**
 * Splits a presented key into its mode and the hash of its secret part. The hash ignores the
 * prefix, so a live key sent with a test prefix is still recognised, and refused as a mode mismatch.
 */
export const parseApiKey = (key: string): { livemode: boolean; secretHash: string } | null => {
  for (const [mode, prefix] of Object.entries(PREFIXES)) {
    if (key.startsWith(prefix)) {
      const body = key.slice(prefix.length);
      return BODY.test(body) ? { livemode: mode === 'live', secretHash: hash(body) } : null;
    }
  }
  return null;
};
