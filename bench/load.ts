import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';

export type LoadResult = Readonly<{
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}>;

export type LoadRequest = Readonly<{ method?: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }>;

/**
 * Sends `total` requests over `connections` keep-alive connections with autocannon, from this
 * process while the server under test runs in its own, and reads throughput and latency from its
 * histograms. `makeRequest(i)` builds the i-th request; a non-2xx answer or an error counts as a failure.
 */
export const runLoad = async (
  origin: string,
  total: number,
  connections: number,
  makeRequest: (i: number) => LoadRequest,
): Promise<LoadResult> => {
  let next = 0;
  // autocannon reports its duration at the first whole-second tick after the last answer (a run of
  // 1.2 s reads 2 s); the time to the last answer is measured here instead.
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections: Math.min(connections, total),
        amount: total,
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const { method = 'POST', path, headers, body } = makeRequest(next++);
              return { ...request, method, path, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { body }) };
            },
          },
        ],
      },
      (error: unknown, finished) => (error ? reject(error instanceof Error ? error : new Error(`autocannon failed: ${JSON.stringify(error)}`)) : resolve(finished)),
    );
    instance.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  const answered = result['2xx'] + result.non2xx;
  const seconds = (lastAnswer - started) / 1000;
  return {
    requests: answered + result.errors,
    failures: result.non2xx + result.errors,
    seconds,
    perSecond: answered / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
};

export const formatResult = (label: string, result: LoadResult): string =>
  `${label.padEnd(44)} ${result.perSecond.toFixed(0).padStart(7)} req/s   p50 ${result.p50Ms.toFixed(1).padStart(6)} ms   p99 ${result.p99Ms
    .toFixed(1)
    .padStart(6)} ms   ${result.failures} failed of ${result.requests}`;

export const formatRatio = (label: string, result: LoadResult, baseline: LoadResult): string =>
  `  ${label}: ${(result.perSecond / baseline.perSecond).toFixed(3)} × the baseline's throughput`;
