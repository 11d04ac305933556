import { z } from 'zod';
import type { Condition, Doc, ReadStore } from '../infra/read-store/port';

/** A page's size, the `limit` of every list: 1 to 100 in decimal digits. */
export const pageLimit = z
  .string()
  .regex(/^(?:[1-9]\d?|100)$/, 'must be a whole number from 1 to 100 in decimal digits')
  .transform(Number)
  .default(25)
  .describe('1 to 100 in decimal digits (no sign, exponent, fraction or leading zero); default 25');

/** `limit` and `starting_after`, shared by every list endpoint, plus the endpoint's own filters. */
export const listQuery = <Shape extends z.ZodRawShape>(filters: Shape) =>
  z.strictObject({
    limit: pageLimit,
    starting_after: z.string().min(1).optional().describe('Id of the last object of the previous page'),
    ...filters,
  });

/** `status=a,b`: comma-separated values of one enum; an unknown value is a 422 naming `status`. */
export const csvEnum = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z
    .string()
    .transform((text, context) => {
      const chosen = text.split(',').map((value) => value.trim());
      const unknown = chosen.filter((value) => !values.includes(value));
      if (unknown.length > 0 || chosen.length === 0) {
        context.addIssue({ code: 'custom', message: `takes ${values.join(', ')} (comma-separated)` });
        return z.NEVER;
      }
      return chosen;
    })
    .describe(`Comma-separated: ${values.join(', ')}`);

export const listOf = <Item extends z.ZodType>(item: Item) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

/** Hides internal (`_`-prefixed) fields of a read-model document. */
export const publicView = <T extends Doc>(doc: T): T => {
  // A loop over the keys, not entries filtered into a new object: every answer of the API goes through here.
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) if (key.charCodeAt(0) !== 0x5f) view[key] = doc[key];
  return view as T;
};

/** What every list's query gives once parsed: its page, and its own filters. */
export type ListQuery = { limit: number; starting_after?: string | undefined } & Record<string, unknown>;

/**
 * One page, newest first, of the organisation's documents. Every other query parameter filters the
 * document field of the same name: a list (`status=a,b`) by membership, a value by equality, or
 * without regard to case for the fields named in `caseInsensitive`.
 */
export const listPage = async (
  readStore: ReadStore,
  collection: string,
  organisationId: string,
  query: ListQuery,
  caseInsensitive: readonly string[] = [],
) => {
  const { limit, starting_after: startingAfter, ...filters } = query;
  const owner: Condition = { field: '_organisation', eq: organisationId };
  const where: Condition[] = [owner];
  for (const [field, value] of Object.entries(filters)) {
    if (Array.isArray(value)) where.push({ field, in: value as string[] });
    else if (typeof value === 'string') where.push(caseInsensitive.includes(field) ? { field, ieq: value } : { field, eq: value });
  }
  const page = await readStore.find(collection, {
    where,
    orderBy: 'created',
    limit,
    // The cursor is a position: any object of the organisation's list, whether or not it still meets the filters.
    ...(startingAfter ? { startingAfter, cursorWhere: [owner] } : {}),
  });
  return { object: 'list' as const, data: page.data.map(publicView), has_more: page.hasMore };
};
