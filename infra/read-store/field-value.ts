/** A field of a document, `a.b` for a nested one; undefined where the path is missing. */
export const valueAt = (doc: unknown, field: string): unknown => {
  let value = doc;
  for (const key of field.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return value;
};
