/** Bounds how many operations run at once; the rest wait in order. */
export const semaphore = (capacity: number) => {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(operation: () => Promise<T>): Promise<T> => {
    if (running >= capacity) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await operation();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
};
