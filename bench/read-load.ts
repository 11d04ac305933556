import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export type ReadLoadResult = Readonly<{
  requests: number;
  failures: number;
  /** The failures by status code (or `error` where no answer came). */
  failed: Readonly<Record<string, number>>;
  p99Ms: number;
  longestGapMs: number;
}>;

/**
 * A light read load at a steady pace: one GET every `1000 / perSecond` ms, each of `paths` in turn,
 * the API keys taken in turn (the rate limit is per key), until `stop`; its p99 (each latency from
 * when the request was due, so one waiting behind a stalled server counts the stall) and the longest
 * gap between two answers (what a client waited behind a stall). Not autocannon: its `overallRate`
 * sends each second's quota at once, so its answers come in bursts a second apart whatever the server does.
 */
export const readLoad = (origin: string, perSecond: number, keys: readonly string[], paths: readonly string[]) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const latencies: number[] = [];
  const failed: Record<string, number> = {};
  let sent = 0;
  let lastAnswer = performance.now();
  let longestGap = 0;
  const inFlight = new Set<Promise<void>>();
  const send = () => {
    const due = performance.now();
    const i = sent++;
    const done = new Promise<void>((resolve) => {
      const answered = (status: number | null) => {
        const now = performance.now();
        latencies.push(now - due);
        if (status !== 200) failed[String(status ?? 'error')] = (failed[String(status ?? 'error')] ?? 0) + 1;
        longestGap = Math.max(longestGap, now - lastAnswer);
        lastAnswer = now;
        resolve();
      };
      request(`${origin}${paths[i % paths.length]}`, { agent, headers: { authorization: `Bearer ${keys[i % keys.length]}` } }, (res) => {
        res.resume();
        res.on('end', () => answered(res.statusCode ?? null));
      })
        .on('error', () => answered(null))
        .end();
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const timer = setInterval(send, 1000 / perSecond);
  return {
    stop: async (): Promise<ReadLoadResult> => {
      clearInterval(timer);
      longestGap = Math.max(longestGap, performance.now() - lastAnswer);
      await Promise.all(inFlight);
      agent.destroy();
      const sorted = [...latencies].sort((a, b) => a - b);
      return { requests: sent, failures: Object.values(failed).reduce((sum, n) => sum + n, 0), failed, p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0, longestGapMs: longestGap };
    },
  };
};
