/** A field of a document, `a.b` for a nested one; undefined where the path is missing. */
export const valueAt = (doc: unknown, field: string): unknown => valueAtKeys(doc, field.split('.'));

/** The same, the field given as its keys (`['a', 'b']`): split once for many documents. */
export const valueAtKeys = (doc: unknown, keys: readonly string[]): unknown => {
  let value = doc;
  for (const key of keys) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
};
