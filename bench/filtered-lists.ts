import { type LoadResult, runLoad } from './load';
import type { ListServed } from './list-seed';
import { startServed } from './served-process';

/** Requests per list (after as many again not counted), over a few connections: the latency of one page, not the service's throughput. */
const REQUESTS = 1000;
const CONNECTIONS = 4;
/** The API allows 120 requests a minute per key. */
const PER_KEY = 100;

/** Every documented filter of the two lists (one value and several), and a page after a cursor. */
const PATHS: readonly ((served: ListServed) => string)[] = [
  () => '/v1/invoices',
  (served) => `/v1/invoices?customer=${served.customer}`,
  (served) => `/v1/invoices?subscription=${served.subscription}`,
  () => '/v1/invoices?status=paid',
  () => '/v1/invoices?status=voided,deleted',
  (served) => `/v1/subscriptions?customer=${served.customer}`,
  (served) => `/v1/subscriptions?customer_code=${served.customerCode}`,
  () => '/v1/subscriptions?status=ended',
  (served) => `/v1/invoices?status=paid&starting_after=${served.invoice}`,
];

export type ListFigures = Readonly<{ objects: number; baseline: LoadResult; lists: readonly (LoadResult & { path: string })[] }>;

/**
 * Every documented filter of `GET /v1/invoices` and `GET /v1/subscriptions` on a sandbox holding
 * `objects` of each (`bench/list-seed.ts`), each answered `REQUESTS` times; the baseline, in the
 * same run, is an invoice read by id.
 */
export const filteredLists = async (objects: number, profileDir: string | null): Promise<ListFigures> => {
  // Every list and the baseline, each warmed up with as many requests as it counts.
  const keys = Math.ceil(((PATHS.length + 1) * 2 * REQUESTS) / PER_KEY) + 1;
  const server = await startServed<ListServed>('lists', { objects, keys }, profileDir);
  try {
    const served = server.ready;
    const origin = new URL(served.url).origin;
    let sent = 0;
    const load = async (path: string) => {
      const get = () => {
        const key = served.keys[Math.floor(sent++ / PER_KEY)]!;
        return { method: 'GET' as const, path, headers: { authorization: `Bearer ${key}` } };
      };
      await runLoad(origin, REQUESTS, CONNECTIONS, get);
      return runLoad(origin, REQUESTS, CONNECTIONS, get);
    };
    const baseline = await load(`/v1/invoices/${served.invoice}`);
    const lists = [];
    for (const pathOf of PATHS) lists.push({ path: pathOf(served), ...(await load(pathOf(served))) });
    return { objects, baseline, lists };
  } finally {
    await server.stop();
  }
};

export const formatLists = (figures: ListFigures): string[] => {
  const row = (label: string, result: LoadResult) => `  ${label.padEnd(62)} p50 ${result.p50Ms.toFixed(1).padStart(5)} ms   p99 ${result.p99Ms.toFixed(1).padStart(5)} ms   ${result.failures} failed of ${result.requests}`;
  const worst = Math.max(...figures.lists.map((list) => list.p99Ms));
  return [
    row('baseline: GET /v1/invoices/{id}', figures.baseline),
    ...figures.lists.map((list) => row(list.path.replace(/(cus|sub|inv)_\w+/g, '$1_…'), list)),
    `  the slowest filtered list: p99 ${worst.toFixed(1)} ms (${(worst / Math.max(figures.baseline.p99Ms, 0.1)).toFixed(1)} × the baseline's)`,
  ];
};
