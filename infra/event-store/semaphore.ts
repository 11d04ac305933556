/** Bounds how many operations run at once; the rest wait in arrival order. */
export const semaphore = (capacity: number) => {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`semaphore capacity must be a positive integer, got ${capacity}`);
  let free = capacity;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> => {
    if (free > 0) {
      free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  // A released slot passes straight to the next waiter, so a newcomer cannot take it in between.
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return async <T>(operation: () => Promise<T>): Promise<T> => {
    await acquire();
    try {
      return await operation();
    } finally {
      release();
    }
  };
};
