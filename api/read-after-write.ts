import type { ApiDeps } from './deps';

/** Reads an object back once the read models include the write that made it (bounded wait). */
export const readAfterWrite = async <T>(deps: ApiDeps, position: bigint, read: () => Promise<T>): Promise<T> => {
  if (!(await deps.waitForProjections(position))) {
    deps.logger.warn({ position: position.toString() }, 'read models lag behind a write');
  }
  return read();
};
