import { z } from 'zod';

/**
 * How one event type is read from the log: its current version, the schema of that version,
 * and the upcasters that lift each older version one step.
 */
export type EventDefinition<Type extends string = string, Data = unknown> = Readonly<{
  type: Type;
  version: number;
  schema: z.ZodType<Data>;
  /** upcasters[v] turns version v data into version v + 1 data. */
  upcasters?: Readonly<Record<number, (data: unknown) => unknown>>;
}>;

export class UnknownEventVersion extends Error {
  override name = 'UnknownEventVersion';
}

export const upcast = (definition: EventDefinition, version: number, data: unknown): unknown => {
  let current = data;
  for (let v = version; v < definition.version; v++) {
    const step = definition.upcasters?.[v];
    if (!step) throw new UnknownEventVersion(`${definition.type}: no upcaster from version ${v}`);
    current = step(current);
  }
  if (version > definition.version) {
    throw new UnknownEventVersion(`${definition.type}: version ${version} is newer than this code knows`);
  }
  return definition.schema.parse(current);
};

/** A 53-bit hash of a text (cyrb53): tells two schemas apart; nothing here is secret. */
const hash53 = (text: string): string => {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
};

const fingerprints = new WeakMap<EventDefinition, string>();

/**
 * A fingerprint of the definition's current schema: a hash of its version and JSON Schema, so any
 * change to what the schema accepts or drops changes it. Appends record it beside data checked against
 * that schema; a reader with the same fingerprint can take such data as stored.
 */
export const schemaFingerprint = (definition: EventDefinition): string => {
  let fingerprint = fingerprints.get(definition);
  if (fingerprint === undefined) {
    fingerprint = hash53(`${definition.version}:${JSON.stringify(z.toJSONSchema(definition.schema))}`);
    fingerprints.set(definition, fingerprint);
  }
  return fingerprint;
};
