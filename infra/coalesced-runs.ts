/**
 * Runs `pass` so that calls made while it runs share that run and ask for one more pass after it
 * (a follower woken by every append does not run twice at once, and misses nothing appended
 * meanwhile). A failed pass is reported to `onError` and the next call starts afresh.
 */
export const coalescedRuns = <A>(pass: (arg: A) => Promise<void>, onError: (error: unknown) => void, stopped: () => boolean) => {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (arg: A): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass(arg);
        } while (again && !stopped());
      } catch (error) {
        onError(error);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return Object.assign(run, { current: (): Promise<void> | null => running });
};
