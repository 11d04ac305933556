import type { z } from 'zod';

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
