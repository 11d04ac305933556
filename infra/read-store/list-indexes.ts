import type { IndexSpec } from './port';

/**
 * The indexes a list of a collection needs, newest first (`created`, then `id`), unfiltered and by
 * each of its filters: each holds the organisation, the filtered field, then the order, so a page
 * is a walk of its index that stops at the page's end, however many documents the organisation has.
 */
export const listIndexes = (collection: string, filters: readonly string[]): IndexSpec[] =>
  [[], ...filters.map((filter) => [filter])].map((filtered) => ({ collection, fields: ['_organisation', ...filtered, 'created', 'id'] }));
