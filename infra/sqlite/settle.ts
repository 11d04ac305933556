/** Runs synchronous SQLite work behind an async port: a throw becomes a rejected promise. */
export const settle = <T>(work: () => T): Promise<T> => {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};
