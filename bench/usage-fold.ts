import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Loaded, loadState } from '../commands/plumbing/handle';
import { UsageStates } from '../commands/plumbing/usage-states';
import { usageDecider } from '../domain/usage/decider';
import { usageStream } from '../domain/usage/events';
import { forgetIdsThrough, type UsageState } from '../domain/usage/state';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { openDatabase } from '../infra/sqlite/open-database';
import { SqliteStateSnapshots } from '../infra/state-snapshots/sqlite';
import { heldBytes } from './held-memory';
import { loopGaps } from './loop-gaps';
import { usageBatchAppended } from './usage-batch';

export type UsageFoldFigures = Readonly<{
  batches: number;
  ids: number;
  /** The stream read to fold (its rows and JSON), not folded: the baseline. */
  scanMs: number;
  /** Folded keeping every id (a process without the id index), and as the service folds it (the index has read every batch). */
  keepingIds: FoldFigures;
  asServed: FoldFigures;
  /** Read back from its snapshot, as a restarted service reads it (the snapshot taken at the last batch). */
  fromSnapshot: FoldFigures;
}>;

type FoldFigures = Readonly<{
  ms: number;
  /** The longest the loop waited meanwhile: what a request beside the fold waits at most. */
  longestStallMs: number;
  idsKept: number;
  /** Memory the folded state holds. */
  heldMb: number;
}>;

const PER_BATCH = 100;

/**
 * What the first usage batch of a subscription whose kept state a restart lost costs before it is
 * decided: its usage stream of `batches` batches of 100 random (UUID) ids folded whole, beside a
 * read of the same stream in the same run; folded keeping every id, and as the service does, told
 * the id index has read every batch (the ids are found there), and read back from its snapshot as a
 * restarted service reads it: the time, the longest the loop waited meanwhile, and the memory the
 * state holds.
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

  /** A load's time, the loop's longest stall meanwhile and what the state holds; it must stand at the last batch. */
  const measure = async (load: () => Promise<Loaded<UsageState>>): Promise<FoldFigures> => {
    const before = await heldBytes();
    const gaps = loopGaps();
    started = performance.now();
    const { state } = await load();
    const ms = performance.now() - started;
    const longestStallMs = gaps.stop();
    const heldMb = ((await heldBytes()) - before) / 1024 / 1024;
    if (state.ids.folded !== batches) throw new Error(`the load stands at ${state.ids.folded} batches, not ${batches}`);
    return { ms, longestStallMs, idsKept: state.ids.seen.size, heldMb };
  };
  const fold = (knownThrough: number) =>
    measure(() => {
      const state = usageDecider.initialState();
      forgetIdsThrough(state.ids, knownThrough);
      return loadState(store, stream, usageDecider, { state, revision: 'no_stream' });
    });
  const keepingIds = await fold(-1);
  const asServed = await fold(batches - 1);

  const snapshots = new SqliteStateSnapshots(db);
  const snapshotErrors: unknown[] = [];
  const served = () => {
    const states = new UsageStates(store);
    states.readIdsFrom(() => Promise.resolve(batches - 1));
    states.keepSnapshotsIn({ snapshots, onError: (error) => snapshotErrors.push(error) });
    return states;
  };
  await served().exclusive('sub_bench', (source) => source.load());
  while (!(await snapshots.read(stream))) {
    if (snapshotErrors.length > 0) throw snapshotErrors[0] as Error;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const fromSnapshot = await measure(() => served().exclusive('sub_bench', (source) => source.load()));
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { batches, ids: batches * PER_BATCH, scanMs, keepingIds, asServed, fromSnapshot };
};

export const formatUsageFold = (figures: UsageFoldFigures): string => {
  const line = (label: string, fold: FoldFigures) =>
    `  ${label.padEnd(42)}${fold.ms.toFixed(0)} ms (${(fold.ms / figures.scanMs).toFixed(2)} × the read), longest stall ${fold.longestStallMs.toFixed(0)} ms, ${fold.idsKept} ids kept, ${fold.heldMb.toFixed(1)} MB held`;
  return [
    `  ${`baseline: read the stream (${figures.batches} batches)`.padEnd(42)}${figures.scanMs.toFixed(0)} ms`,
    line('fold it whole, every id kept', figures.keepingIds),
    line('as the service folds it (index read)', figures.asServed),
    line('from its snapshot (a restarted service)', figures.fromSnapshot),
  ].join('\n');
};
