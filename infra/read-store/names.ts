const COLLECTION = /^[a-z][a-z0-9_]{0,62}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** Collection and field names reach SQL and Mongo keys; only plain identifiers are allowed. */
export const assertCollection = (name: string): string => {
  if (!COLLECTION.test(name)) throw new Error(`invalid collection name: ${name}`);
  return name;
};

export const assertField = (name: string): string => {
  if (!FIELD.test(name)) throw new Error(`invalid field name: ${name}`);
  return name;
};

/** Where generation `generation` of a read model's collection lives: generation 0 under the plain name, later ones beside it. */
export const generationName = (collection: string, generation: number): string =>
  assertCollection(generation === 0 ? collection : `${collection}_g${generation}`);
