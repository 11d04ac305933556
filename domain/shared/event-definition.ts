import { z } from 'zod';
import { fingerprintOf } from './fingerprint';

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

const fingerprints = new WeakMap<EventDefinition, string>();

/**
 * A fingerprint of the definition's current schema: a hash of its version and JSON Schema, so any
 * change to what the schema accepts or drops changes it. Appends record it beside data checked against
 * that schema; a reader with the same fingerprint can take such data as stored.
 */
export const schemaFingerprint = (definition: EventDefinition): string => {
  let fingerprint = fingerprints.get(definition);
  if (fingerprint === undefined) {
    const { high, low } = fingerprintOf(`${definition.version}:${JSON.stringify(z.toJSONSchema(definition.schema))}`);
    fingerprint = `${high.toString(36)}.${low.toString(36)}`;
    fingerprints.set(definition, fingerprint);
  }
  return fingerprint;
};
