import { coalescedRuns } from './coalesced-runs';
import type { EventStore } from './event-store/port';

export type AppendsFollowed = Readonly<{
  /** A pass now (or the running one, and one more after it). */
  run(): Promise<void>;
  /** No pass after this one; resolves once the running one has ended. */
  stop(): Promise<void>;
}>;

/**
 * Runs `pass` whenever the log may have grown: once at the end of a loop turn in which this
 * process's appends committed (a group commit settles many at once), and every `pollMs` for other
 * processes' appends. One pass at a time (`coalescedRuns`); a failed pass goes to `onError` and the
 * next append or poll tries again.
 */
export const followAppends = (store: EventStore, pass: () => Promise<void>, onError: (error: unknown) => void, pollMs = 1000): AppendsFollowed => {
  let stopped = false;
  let scheduled = false;
  const runs = coalescedRuns<void>(pass, onError, () => stopped);
  const run = (): Promise<void> => (stopped ? Promise.resolve() : runs());
  const unsubscribe = store.onAppended(() => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void run();
    });
  });
  const timer = setInterval(() => void run(), pollMs);
  timer.unref();
  return {
    run,
    stop: async () => {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await runs.current();
    },
  };
};
