import { performance } from 'node:perf_hooks';

/** A run's time in milliseconds: the median and the 99th percentile over its repetitions. */
export type Timing = Readonly<{ p50: number; p99: number }>;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Times `runs` runs of `run`, one after the other. */
export const timed = async (runs: number, run: () => Promise<unknown>): Promise<Timing> => {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
};
