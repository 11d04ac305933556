import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** Schemas the OpenAPI document shows as the JSON Schema registered here instead of their own. */
export const documentedSchemas = z.registry<JsonSchema>();

/**
 * What the reference says a field takes, where its schema reads more than that on purpose so that
 * a rule further in can refuse the rest with its own code (a non-number `units` is `units_invalid`).
 */
export const documentedAs = <T extends z.ZodType>(schema: T, json: JsonSchema): T => {
  documentedSchemas.add(schema, json);
  return schema;
};
