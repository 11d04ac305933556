import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { consoleBench } from './console';
import { HTTP_ROWS, httpBench, USAGE_IDS, type UsageIds } from './http';
import { formatRounds, type RowFigures } from './rounds';
import { useRunDir } from './run-dir';
import { billingDay, type BillingDayFigures, formatBillingDay, READS_PER_SECOND } from './billing-day';
import { filteredLists, formatLists } from './filtered-lists';
import { scaleRows } from './scale';

/**
 * `npm run bench [-- --profile]`: every row beside its baseline measured in the same run. Sections
 * (`BENCH_SECTIONS`, default all, comma-separated): `http` (autocannon against the service in its
 * own process; `BENCH_ROWS` picks its rows, default `creations,usage,seeded`, the baseline always
 * runs; `BENCH_ROUNDS` repeats them, then prints each row's median and spread), `scale` (memory
 * after many events, rebuild beside a raw scan, folds), `billing-day` (a billing day of
 * `BENCH_BILLING_DAY_SUBSCRIPTIONS`, default 5,000, beside one of a tenth as many, each followed by
 * its sandbox's reset; the filtered lists at `BENCH_LIST_OBJECTS`, default 100,000) and `console`
 * (each console page's latency and transfer over `BENCH_CONSOLE_SUBSCRIPTIONS` subscriptions). Data sizes and
 * load from the environment; `--profile` has every server process write a CPU profile into `bench-profiles/`.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const profileDir = process.argv.includes('--profile') ? resolve('bench-profiles') : null;
const print = (line: string) => process.stdout.write(`${line}\n`);

const sections: Record<string, () => Promise<boolean>> = {
  http: async () => {
    const options = {
      requests: env('BENCH_REQUESTS', 1000),
      warmup: env('BENCH_WARMUP', 500),
      connections: env('BENCH_CONNECTIONS', 16),
      usageBatches: env('BENCH_USAGE_BATCHES', 1000),
      usageIds: (process.env.BENCH_USAGE_IDS ?? USAGE_IDS.join(',')).split(',').map((name) => name.trim()) as UsageIds[],
      idempotencyRecords: env('BENCH_IDEMPOTENCY_RECORDS', 100_000),
      organisationEvents: env('BENCH_ORG_EVENTS', 1000),
      profileDir,
      rows: new Set((process.env.BENCH_ROWS ?? HTTP_ROWS.join(',')).split(',').map((name) => name.trim())),
    };
    const unknown = [...options.rows].filter((name) => !(HTTP_ROWS as readonly string[]).includes(name));
    if (unknown.length > 0) throw new Error(`unknown bench rows ${unknown.join(', ')}; known: ${HTTP_ROWS.join(', ')}`);
    const unknownIds = options.usageIds.filter((name) => !(USAGE_IDS as readonly string[]).includes(name));
    if (unknownIds.length > 0) throw new Error(`unknown BENCH_USAGE_IDS ${unknownIds.join(', ')}; known: ${USAGE_IDS.join(', ')}`);
    const rounds = env('BENCH_ROUNDS', 1);
    print(`http: autocannon, ${options.connections} connections, ${options.requests} requests a row (the baseline 5 ×) after ${options.warmup} not counted, Node ${process.version}`);
    let ok = true;
    const figures: RowFigures[][] = [];
    for (let round = 1; round <= rounds; round++) {
      if (rounds > 1) print(`round ${round} of ${rounds}`);
      const result = await httpBench(options, print);
      ok &&= result.ok;
      figures.push(result.figures);
    }
    if (rounds > 1) formatRounds(figures).forEach(print);
    return ok;
  },
  scale: async () => {
    await scaleRows((text) => process.stdout.write(text));
    return true;
  },
  'billing-day': async () => {
    const subscriptions = env('BENCH_BILLING_DAY_SUBSCRIPTIONS', 5000);
    const sizes = [Math.max(1, Math.round(subscriptions / 10)), subscriptions];
    print(`billing day: N subscriptions renewing on one date, the sandbox's clock advanced past it, ${READS_PER_SECOND} reads/s of GET /v1/subscriptions/{id} meanwhile; then its reset`);
    const days = [];
    for (const size of sizes) {
      const day = await billingDay(size, profileDir);
      formatBillingDay(day).forEach(print);
      days.push(day);
    }
    const [small, large] = days as [BillingDayFigures, BillingDayFigures];
    print(`  N = ${large.subscriptions} against N/10: ${(large.perSecond / small.perSecond).toFixed(2)} × the rate, ${(large.cpuMsPerRenewal / small.cpuMsPerRenewal).toFixed(2)} × the CPU per renewal (targets: ≥ 1,000 renewals/s, and 50,000's rate ≥ 0.8 × 5,000's; read p99 < 100 ms, longest gap < 200 ms)`);
    const objects = env('BENCH_LIST_OBJECTS', 100_000);
    print(`filtered lists: ${objects} invoices and ${objects} subscriptions in one organisation (target: p99 < 20 ms)`);
    formatLists(await filteredLists(objects, profileDir)).forEach(print);
    return days.every((day) => day.reads.failures + day.reset.reads.failures === 0);
  },
  console: () => consoleBench(print),
};

const main = async (): Promise<void> => {
  useRunDir('billing-bench-');
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const chosen = (process.env.BENCH_SECTIONS ?? Object.keys(sections).join(',')).split(',').map((name) => name.trim());
  let ok = true;
  for (const name of chosen) {
    const section = sections[name];
    if (!section) throw new Error(`unknown bench section ${name}; known: ${Object.keys(sections).join(', ')}`);
    ok = (await section()) && ok;
    print('');
  }
  if (profileDir) print(`CPU profiles of the server processes: ${join(profileDir, '*.cpuprofile')}`);
  if (!ok) process.exitCode = 1;
};

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
