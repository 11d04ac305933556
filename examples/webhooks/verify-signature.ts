import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Checks a webhook delivery's `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` header:
 * `v1` is the hex HMAC-SHA256 of `<t>.<raw body>` keyed with the whole signing secret (`whsec_…`).
 * After a secret is rolled the header carries one `v1` per secret for 24 hours: any match will do.
 * `rawBody` is the body exactly as received, before any JSON parsing. A `t` more than five minutes
 * old is refused, so a captured delivery cannot be replayed later.
 */
export const verifySignature = (header: string | undefined, rawBody: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean => {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.split('=') as [string, string]);
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(t) || nowSeconds - t > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts
    .filter(([key]) => key === 'v1')
    .some(([, hex]) => {
      const given = Buffer.from(hex, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
};
