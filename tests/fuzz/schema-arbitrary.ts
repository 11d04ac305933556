import fc from 'fast-check';

/** The JSON Schema subset the OpenAPI documents use (zod's draft 2020-12 output). */
export type JsonSchema = Readonly<{
  $ref?: string;
  type?: string;
  anyOf?: readonly JsonSchema[];
  enum?: readonly unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
}>;

/** A value known to make sense for a field of this name (an existing code, id or timezone), tried beside generated ones. */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

const MAX_STRING = 40;

const fromPattern = (pattern: string, schema: JsonSchema): fc.Arbitrary<string> => {
  try {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? Number.MAX_SAFE_INTEGER;
    return fc.stringMatching(new RegExp(pattern)).filter((text) => text.length >= min && text.length <= max);
  } catch {
    return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING) });
  }
};

/**
 * Values a JSON Schema accepts, as far as it says (refinements such as "a real timezone" are not in
 * the document, so `hints` supply values that pass them). Edges are favoured: bounds of integers,
 * the longest strings, empty and full arrays.
 */
export const valueOf = (schema: JsonSchema, components: Readonly<Record<string, JsonSchema>>, hints: Hints, name = ''): fc.Arbitrary<unknown> => {
  const generated = generate(schema, components, hints);
  const hint = hints[name];
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: generated }) : generated;
};

const generate = (schema: JsonSchema, components: Readonly<Record<string, JsonSchema>>, hints: Hints): fc.Arbitrary<unknown> => {
  if (schema.$ref) return generate(components[schema.$ref.replace('#/components/schemas/', '')] ?? {}, components, hints);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => generate(option, components, hints)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string': {
      if (schema.pattern) return fromPattern(schema.pattern, schema);
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING);
      const longest = schema.maxLength !== undefined ? [fc.constant('x'.repeat(schema.maxLength))] : [];
      return fc.oneof(fc.string({ minLength: min, maxLength: Math.max(min, max) }), fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.max(min, max) }), ...longest);
    }
    case 'integer': {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31;
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(generate(schema.items ?? {}, components, hints), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, valueOf(inner, components, hints, key)]));
      return optionalsSometimes(shape, schema.required ?? []);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
};

/**
 * An object with its required keys and, half the time, none of its optional ones (else each with
 * even odds): with many optional fields, a request where every one is plausible is otherwise rare.
 */
export const optionalsSometimes = (shape: Record<string, fc.Arbitrary<unknown>>, required: readonly string[]): fc.Arbitrary<Record<string, unknown>> => {
  const requiredOnly = Object.fromEntries(Object.entries(shape).filter(([key]) => required.includes(key)));
  return fc.oneof(fc.record(requiredOnly), fc.record(shape, { requiredKeys: [...required] }));
};
