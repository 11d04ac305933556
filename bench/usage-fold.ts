import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadState } from '../commands/handle';
import { usageDecider } from '../domain/usage/decider';
import { usageStream } from '../domain/usage/events';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { openDatabase } from '../infra/sqlite/open-database';
import { loopGaps } from './loop-gaps';
import { usageBatchAppended } from './usage-batch';

export type UsageFoldFigures = Readonly<{
  batches: number;
  ids: number;
  /** The stream read to fold (its rows and JSON), not folded: the baseline. */
  scanMs: number;
  foldMs: number;
  /** The longest the loop waited meanwhile: what a request beside the fold waits at most. */
  longestStallMs: number;
}>;

const PER_BATCH = 100;

/**
 * What the first usage batch of a subscription whose kept state a restart lost costs before it is
 * decided: its usage stream of `batches` batches of 100 random (UUID) ids folded whole (every id kept
 * for de-duplication), beside a read of the same stream in the same run, and the longest the loop
 * waited meanwhile.
 */
export const usageFoldBench = async (batches: number): Promise<UsageFoldFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-usage-fold-'));
  const db = openDatabase(join(dataDir, 'billing.sqlite'));
  const store = new SqliteEventStore(db);
  const stream = usageStream('sub_bench');
  const appendMany = db.transaction((count: number) => {
    for (let k = 0; k < count; k++) {
      void store.append(stream, [usageBatchAppended('sub_bench', Array.from({ length: PER_BATCH }, () => randomUUID()))], 'any');
    }
  });
  for (let done = 0; done < batches; done += 1000) appendMany(Math.min(1000, batches - done));

  let started = performance.now();
  await store.readStreamToFold(stream);
  const scanMs = performance.now() - started;

  const gaps = loopGaps();
  started = performance.now();
  const { state } = await loadState(store, stream, usageDecider);
  const foldMs = performance.now() - started;
  const longestStallMs = gaps.stop();
  if (state.ids.seen.size !== batches * PER_BATCH) throw new Error(`the fold kept ${state.ids.seen.size} ids, not ${batches * PER_BATCH}`);
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { batches, ids: batches * PER_BATCH, scanMs, foldMs, longestStallMs };
};

export const formatUsageFold = (figures: UsageFoldFigures): string =>
  [
    `  baseline: read the stream (${figures.batches} batches)    ${figures.scanMs.toFixed(0)} ms`,
    `  fold it whole, every id kept            ${figures.foldMs.toFixed(0)} ms (${(figures.foldMs / figures.scanMs).toFixed(2)} × the read), ${(figures.ids / (figures.foldMs / 1000)).toFixed(0)} ids/s`,
    `  the loop meanwhile                      longest stall ${figures.longestStallMs.toFixed(0)} ms (what a request beside it waits at most)`,
  ].join('\n');
