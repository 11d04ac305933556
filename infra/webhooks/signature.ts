import { createHmac } from 'node:crypto';

/**
 * `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`: v1 is the hex HMAC-SHA256 of
 * `<t>.<raw body>` keyed with the whole signing secret (`whsec_` included); one v1 per secret that
 * signs (the current one, and a rolled one during its 24 hours).
 */
export const signatureHeader = (secrets: readonly string[], unixSeconds: number, body: string): string =>
  [`t=${unixSeconds}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`)].join(',');
