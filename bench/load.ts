import { performance } from 'node:perf_hooks';

export type LoadResult = Readonly<{
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}>;

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Sends `total` requests from `concurrency` loops over keep-alive connections and measures each
 * request's latency. `makeRequest(i)` builds the i-th request; a non-2xx answer counts as a failure.
 */
export const runLoad = async (
  total: number,
  concurrency: number,
  makeRequest: (i: number) => { url: string; init: RequestInit },
): Promise<LoadResult> => {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const { url, init } = makeRequest(i);
      const t0 = performance.now();
      const response = await fetch(url, init);
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (response.status < 200 || response.status > 299) failures++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: total,
    failures,
    seconds,
    perSecond: total / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
};

export const formatResult = (label: string, result: LoadResult): string =>
  `${label.padEnd(38)} ${result.perSecond.toFixed(0).padStart(7)} req/s   p50 ${result.p50Ms.toFixed(2).padStart(7)} ms   p99 ${result.p99Ms
    .toFixed(2)
    .padStart(7)} ms   ${result.failures} failed of ${result.requests}`;
