import { formatMemory, memoryBench } from './memory';
import { formatRebuild, rebuildBench } from './rebuild';
import { formatReports, reportsBench } from './revenue-reports';
import { useRunDir } from './run-dir';
import { formatUsageFold, usageFoldBench } from './usage-fold';
import { formatUsageIdIndex, usageIdIndexBench } from './usage-id-index';

export const REBUILD_EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 200_000);
export const MEMORY_EVENTS = Number(process.env.BENCH_MEMORY_EVENTS ?? 1_000_000);
export const USAGE_IDS = Number(process.env.BENCH_USAGE_INDEX_IDS ?? 1_000_000);
export const USAGE_FOLD_BATCHES = Number(process.env.BENCH_USAGE_FOLD_BATCHES ?? 10_000);
export const REPORT_SUBSCRIPTIONS = Number(process.env.BENCH_REPORT_SUBSCRIPTIONS ?? 100_000);

const ROWS = ['memory', 'rebuild', 'usage-ids', 'usage-fold', 'reports'] as const;
type Row = (typeof ROWS)[number];

/**
 * `BENCH_SCALE_ROWS` (comma-separated, default every row): `memory` (slow: a 1M-event log), `rebuild`
 * (rebuild, scan and folds), `usage-ids` (the usage event id index read from a log of 1M ids),
 * `usage-fold` (a subscription's usage stream of 1M ids folded cold) and `reports` (the revenue
 * reports over `BENCH_REPORT_SUBSCRIPTIONS` subscriptions, default 100,000).
 */
const chosenRows = (): Set<Row> => {
  const names = (process.env.BENCH_SCALE_ROWS ?? ROWS.join(',')).split(',').map((name) => name.trim());
  for (const name of names) if (!(ROWS as readonly string[]).includes(name)) throw new Error(`unknown scale row ${name}; known: ${ROWS.join(', ')}`);
  return new Set(names as Row[]);
};

/** The rows about data size: memory after many events, rebuild beside a raw scan, folding a long stream, the usage id index, a cold usage fold, the revenue reports. */
export const scaleRows = async (write: (text: string) => void): Promise<void> => {
  const rows = chosenRows();
  // Memory first: its baseline is then a process that has not yet held a rebuild's log.
  if (rows.has('memory')) {
    write(`\nmemory: the service's resident set after ${MEMORY_EVENTS} events\n`);
    write(`${formatMemory(await memoryBench(MEMORY_EVENTS))}\n`);
  }
  if (rows.has('rebuild')) {
    write(`\nrebuild: every read model from a log of at least ${REBUILD_EVENTS} events, beside a raw scan of the same log\n`);
    write(`${formatRebuild(await rebuildBench(REBUILD_EVENTS))}\n`);
  }
  if (rows.has('usage-ids')) {
    write(`\nusage event ids: the index a service reads from a log of ${USAGE_IDS} random ids at start\n`);
    write(`${formatUsageIdIndex(await usageIdIndexBench(USAGE_IDS))}\n`);
  }
  if (rows.has('usage-fold')) {
    write(`\nusage fold: a subscription's usage stream of ${USAGE_FOLD_BATCHES} batches of 100 ids, folded as a restarted process does at its first batch\n`);
    write(`${formatUsageFold(await usageFoldBench(USAGE_FOLD_BATCHES))}\n`);
  }
  if (rows.has('reports')) {
    write(`\nrevenue reports: a 120-month MRR and revenue report read from their read model, and an MRR report as of an instant\n`);
    write(`${formatReports(await reportsBench(REPORT_SUBSCRIPTIONS))}\n`);
  }
};

// `npm run bench:scale`: these rows alone (`npm run bench` prints them after the HTTP rows).
if (require.main === module) {
  useRunDir('billing-bench-');
  scaleRows((text) => process.stdout.write(text)).catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
