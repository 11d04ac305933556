import { formatMemory, memoryBench } from './memory';
import { formatRebuild, rebuildBench } from './rebuild';

export const REBUILD_EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 200_000);
export const MEMORY_EVENTS = Number(process.env.BENCH_MEMORY_EVENTS ?? 1_000_000);

/** The rows about data size: memory after many events, rebuild beside a raw scan, folding a long stream. */
export const scaleRows = async (write: (text: string) => void): Promise<void> => {
  // Memory first: its baseline is then a process that has not yet held a rebuild's log.
  write(`\nmemory: the service's resident set after ${MEMORY_EVENTS} events\n`);
  write(`${formatMemory(await memoryBench(MEMORY_EVENTS))}\n`);
  write(`\nrebuild: every read model from a log of at least ${REBUILD_EVENTS} events, beside a raw scan of the same log\n`);
  write(`${formatRebuild(await rebuildBench(REBUILD_EVENTS))}\n`);
};

// `npm run bench:scale`: these rows alone (`npm run bench` prints them after the HTTP rows).
if (require.main === module) {
  scaleRows((text) => process.stdout.write(text)).catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
