import autocannon from 'autocannon';

export type LoadResult = Readonly<{
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}>;

export type LoadRequest = Readonly<{ path: string; headers: Record<string, string>; body: string }>;

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
  const result = await autocannon({
    url: origin,
    connections: Math.min(connections, total),
    amount: total,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const { path, headers, body } = makeRequest(next++);
          return { ...request, method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body };
        },
      },
    ],
  });
  const answered = result['2xx'] + result.non2xx;
  return {
    requests: answered + result.errors,
    failures: result.non2xx + result.errors,
    seconds: result.duration,
    perSecond: answered / result.duration,
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
