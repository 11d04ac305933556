import { hash, randomFillSync } from 'node:crypto';

export const ID_PREFIXES = {
  organisation: 'org',
  customer: 'cus',
  plan: 'plan',
  charge: 'chg',
  meter: 'mtr',
  subscription: 'sub',
  invoice: 'inv',
  invoiceLine: 'il',
  creditNote: 'cn',
  event: 'evt',
  delivery: 'whd',
  webhookEndpoint: 'we',
  apiKey: 'key',
  request: 'req',
  consoleSession: 'cs',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 24;

const base62 = (bytes: Buffer): string => {
  let out = '';
  for (let i = 0; out.length < LENGTH; i++) out += ALPHABET[bytes[i % bytes.length]! % 62];
  return out;
};

/** Random bytes drawn from the system's generator a pool at a time (one call per id cost more than the id), each byte used once. */
const pool = Buffer.alloc(4096);
let pooled = 0;
const randomByte = (): number => {
  if (pooled === 0) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  pooled -= 1;
  return pool[pooled]!;
};

/** Random base62 characters, each equally likely (bytes of 248 and above are drawn again). */
export const randomBase62 = (length: number): string => {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
};

/**
 * A new event id: a UUID of version 7 (RFC 9562), its first 48 bits the time in milliseconds and the
 * rest random, so the events of one commit are neighbours in the log's unique index on ids (a
 * commit writes fewer of its pages than with random ids). The time orders ids only; it is not the
 * event's time, which is the organisation's clock in the event's data.
 */
export const newEventId = (now = Date.now()): string => {
  const time = now.toString(16).padStart(12, '0');
  let random = '';
  for (let i = 0; i < 10; i += 1) random += randomByte().toString(16).padStart(2, '0');
  const variant = ((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 19)}`;
};

/** A new random id with its type prefix, e.g. `cus_3kTn…`. */
export const newId = (kind: IdKind): string => `${ID_PREFIXES[kind]}_${randomBase62(LENGTH)}`;

/** The same id every time for the same parts: retries after a crash find the object already made. */
export const derivedId = (kind: IdKind, ...parts: string[]): string =>
  `${ID_PREFIXES[kind]}_${base62(hash('sha256', parts.join('\u0000'), 'buffer'))}`;
