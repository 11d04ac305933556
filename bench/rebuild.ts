import { rmSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadState } from '../commands/plumbing/handle';
import { invoiceCommand } from '../commands/plumbing/invoice-command';
import { invoiceDecider } from '../domain/invoice/decider';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { silentLogger } from '../infra/logger';
import { SqliteReadStore } from '../infra/read-store/sqlite';
import { openDatabase } from '../infra/sqlite/open-database';
import { allProjections } from '../projections/read-models/all';
import { ProjectionRunner } from '../projections/engine/runner';
import { sqliteRebuildPartitions } from '../service/rebuild-partitions';
import { databaseFile } from '../service/services';
import { loopGaps } from './loop-gaps';
import { recordTemplate } from './template-log';
import { type Timing, timed } from './timed';

export type RebuildFigures = Readonly<{
  events: number;
  /** The raw scan's rate before and after the rebuild: a rebuild lasts several times as long as a scan, over which the machine's speed moves. */
  scanPerSecond: Readonly<{ before: number; after: number }>;
  rebuildPerSecond: number;
  /** How long the runner's loop went without a turn during the rebuild: what a request beside it waits at most (ms). */
  loopStall: Readonly<{ max: number; p99: number }>;
  /** Threads the replay was split across (1: the runner's loop). */
  threads: number;
  /** The 1,000-event stream folded whole; loaded from the kept state; a 2-event stream folded whole. */
  foldMs: Timing;
  keptMs: Timing;
  shortMs: Timing;
}>;

const BATCH = 500;

/**
 * A log of realistic events: the streams one subscription creation writes over HTTP, copied under
 * fresh ids (`recordTemplate`) in the quick start's sandbox, so every projection has real work to do;
 * at least `events` of them, or `subscriptions` creations, `spreadMs` apart.
 */
export const buildSubscriptionLog = async (
  size: Readonly<{ events: number }> | Readonly<{ subscriptions: number }>,
  /** Each copy recorded this much before the one after it (0: every copy at the template's instants). */
  spreadMs = 0,
): Promise<Readonly<{ dataDir: string; organisationId: string }>> => {
  const template = await recordTemplate();
  const db = openDatabase(databaseFile(template.dataDir));
  const store = new SqliteEventStore(db);
  const copies = 'subscriptions' in size ? size.subscriptions : Math.ceil((size.events - Number(await store.headPosition())) / template.perCopy);
  // Thousands of appends per transaction: the bench measures reading the log, not writing it.
  const appendCopies = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) for (const { streamId, events } of template.copy(i, (copies - i) * spreadMs)) void store.append(streamId, events, 'no_stream');
  });
  for (let i = 0; i < copies; i += 2000) appendCopies(i, Math.min(i + 2000, copies));
  // One stream of 1,000 events to fold: an invoice raised, then 999 failed pushes.
  const [raised, ...failures] = template.longInvoice('inv_long', 999);
  await store.append('invoice-inv_long', [raised!], 'no_stream');
  await store.append('invoice-inv_long', failures, 0);
  db.close();
  return { dataDir: template.dataDir, organisationId: template.organisationId };
};

/** A log of at least `target` events (`buildSubscriptionLog`): its data directory. */
export const buildLog = async (target: number): Promise<string> => (await buildSubscriptionLog({ events: target })).dataDir;

/**
 * The rebuild rate of every read model over a log of `target` events, beside its baseline: a raw
 * scan of the same log (`readAll` in the runner's batch size, nothing decoded or written), measured
 * in the same run just before and just after it; and the time to fold one stream of 1,000 events as
 * a command handler loads it.
 */
export const rebuildBench = async (target: number): Promise<RebuildFigures> => {
  const dataDir = await buildLog(target);
  const db = openDatabase(databaseFile(dataDir));
  const store = new SqliteEventStore(db);
  const events = Number(await store.headPosition());

  const scan = async (): Promise<number> => {
    let scanned = 0;
    const scanStart = performance.now();
    for (let after = 0n; ; ) {
      const batch = await store.readAll(after, BATCH);
      if (batch.length === 0) break;
      scanned += batch.length;
      after = batch[batch.length - 1]!.position;
    }
    return scanned / ((performance.now() - scanStart) / 1000);
  };
  const scanBefore = await scan();

  // Split across threads as the service does (`BENCH_REBUILD_THREADS`, default one a core; 1: on the runner's loop).
  const threads = process.env.BENCH_REBUILD_THREADS ? Number(process.env.BENCH_REBUILD_THREADS) : undefined;
  const partitions = sqliteRebuildPartitions(store, databaseFile(dataDir), { threads });
  const split = Math.min(partitions.threads, allProjections.length);
  const runner = new ProjectionRunner(store, new SqliteReadStore(db), allProjections, silentLogger(), { batchSize: BATCH, partitions });
  await runner.init();
  // The live generation up to date first, as beside a running service: the rebuild is measured, not a catch-up.
  await runner.catchUp();
  const stalls = monitorEventLoopDelay({ resolution: 5 });
  stalls.enable();
  const gaps = loopGaps();
  const rebuildStart = performance.now();
  runner.startRebuild(null, { verify: false });
  const rebuilt = await runner.rebuilt();
  if (rebuilt?.status !== 'switched') throw new Error(`rebuild ${rebuilt?.status ?? 'missing'}: ${rebuilt?.error ?? ''}`);
  const rebuildPerSecond = rebuilt.events / ((performance.now() - rebuildStart) / 1000);
  stalls.disable();
  const loopStall = { max: gaps.stop(), p99: stalls.percentile(99) / 1e6 };
  await runner.stop();
  const scanPerSecond = { before: scanBefore, after: await scan() };

  // Whole: every event read, upcast and evolved, as a process that has not folded the stream yet does.
  const foldMs = await timed(100, async () => {
    const { state } = await loadState(store, 'invoice-inv_long', invoiceDecider);
    if (state.status !== 'raised' || state.sync !== 'failed') throw new Error('the long stream did not fold as expected');
  });
  // As a command handler loads it: from the state this process keeps, reading only what follows.
  await invoiceCommand.load(store, 'inv_long');
  const keptMs = await timed(200, () => invoiceCommand.load(store, 'inv_long'));
  const shortMs = await timed(200, () => loadState(store, 'invoice-inv_bench0', invoiceDecider));
  db.close();
  // Hundreds of megabytes at the default size: not left behind.
  rmSync(dataDir, { recursive: true, force: true });
  return { events, scanPerSecond, rebuildPerSecond, loopStall, threads: split > 1 ? split : 1, foldMs, keptMs, shortMs };
};

/** The scan's mean rate before and after: the baseline the rebuild's ratio is to. */
const scanBaseline = ({ before, after }: RebuildFigures['scanPerSecond']): number => (before + after) / 2;

export const formatRebuild = (figures: RebuildFigures): string =>
  [
    `log of ${figures.events} events (SQLite)`,
    `  baseline: raw readAll scan            ${scanBaseline(figures.scanPerSecond).toFixed(0).padStart(9)} events/s   (${figures.scanPerSecond.before.toFixed(0)} before the rebuild, ${figures.scanPerSecond.after.toFixed(0)} after)`,
    `  blue/green rebuild, every read model  ${figures.rebuildPerSecond.toFixed(0).padStart(9)} events/s   (${(figures.rebuildPerSecond / scanBaseline(figures.scanPerSecond)).toFixed(3)} × the scan; ${figures.threads > 1 ? `split across ${figures.threads} threads` : "on the runner's loop"})`,
    `  the runner's loop during the rebuild  longest stall ${figures.loopStall.max.toFixed(0)} ms   p99 ${figures.loopStall.p99.toFixed(0)} ms   (what a request beside it waits for the loop at most)`,
    `  fold one stream of 1,000 events       p50 ${figures.foldMs.p50.toFixed(2)} ms   p99 ${figures.foldMs.p99.toFixed(2)} ms   (whole, as a process that has not kept it)`,
    `  load it as a handler does             p50 ${figures.keptMs.p50.toFixed(2)} ms   p99 ${figures.keptMs.p99.toFixed(2)} ms   (from the kept state)`,
    `  baseline: fold a 2-event stream       p50 ${figures.shortMs.p50.toFixed(2)} ms   p99 ${figures.shortMs.p99.toFixed(2)} ms   (kept load ${(figures.keptMs.p50 / figures.shortMs.p50).toFixed(2)} × it)`,
  ].join('\n');
