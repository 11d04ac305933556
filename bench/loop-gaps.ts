import { performance } from 'node:perf_hooks';

/**
 * The longest gap between turns of the loop from now until `stop`, the last one included (a
 * `monitorEventLoopDelay` misses a stall that lasts until it is disabled: its first sample is taken
 * after it).
 */
export const loopGaps = (): Readonly<{ longest: () => number; stop: () => number }> => {
  let last = performance.now();
  let longest = 0;
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return {
    longest: () => longest,
    stop: (): number => {
      clearTimeout(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
};
