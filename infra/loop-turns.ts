import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a piece of long work holds the loop before it lets requests in: a request waits about this much behind it. */
export const TURN_BUDGET_MS = 10;

/**
 * Long work cut into turns of the event loop: `pause()` resolves at once until `budgetMs` of work
 * has run since the last turn, then lets the loop turn (timers, sockets, requests waiting) first.
 * Work whose awaits all resolve at once (the embedded stores' reads) would otherwise hold the loop
 * from its start to its end.
 */
export const loopTurns = (budgetMs = TURN_BUDGET_MS) => {
  let since = performance.now();
  return {
    pause: async (): Promise<void> => {
      if (performance.now() - since < budgetMs) return;
      await nextTurn();
      since = performance.now();
    },
  };
};
