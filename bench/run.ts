import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { httpBench } from './http';
import { formatRebuild, rebuildBench } from './rebuild';

/**
 * `npm run bench [-- --profile]`: every row beside its baseline measured in the same run. Sections
 * (`BENCH_SECTIONS`, default all, comma-separated): `http` (autocannon against the service in its
 * own process) and `rebuild`. Data sizes and load from the environment; `--profile` has every
 * server process write a CPU profile into `bench-profiles/`.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const profileDir = process.argv.includes('--profile') ? resolve('bench-profiles') : null;
const print = (line: string) => process.stdout.write(`${line}\n`);

const sections: Record<string, () => Promise<boolean>> = {
  http: async () => {
    const options = {
      requests: env('BENCH_REQUESTS', 1000),
      connections: env('BENCH_CONNECTIONS', 16),
      usageBatches: env('BENCH_USAGE_BATCHES', 300),
      idempotencyRecords: env('BENCH_IDEMPOTENCY_RECORDS', 100_000),
      organisationEvents: env('BENCH_ORG_EVENTS', 1000),
      profileDir,
    };
    print(`http: autocannon, ${options.connections} connections, ${options.requests} requests a row (the baseline 5 ×), Node ${process.version}`);
    return httpBench(options, print);
  },
  rebuild: async () => {
    const events = env('BENCH_REBUILD_EVENTS', 200_000);
    print(`rebuild: every read model from a log of at least ${events} events, beside a raw scan of the same log`);
    print(formatRebuild(await rebuildBench(events)));
    return true;
  },
};

const main = async (): Promise<void> => {
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
