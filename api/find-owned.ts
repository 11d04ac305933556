import type { Doc } from '../infra/read-store/port';
import type { ApiDeps } from './deps';
import { notFound } from './errors';

/** A read-model document of the organisation's own, or the resource's 404 (another organisation's ids included). */
export const findOwned = async <T extends Doc & { _organisation: string }>(
  deps: ApiDeps,
  collection: string,
  organisationId: string,
  id: string,
  code: string,
): Promise<T> => {
  const doc = await deps.readStore.get<T>(collection, id);
  if (!doc || doc._organisation !== organisationId) throw notFound(code, `No such object: ${id}.`, 'id');
  return doc;
};
