import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { usageStream } from '../domain/usage/events';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { silentLogger } from '../infra/logger';
import { openDatabase } from '../infra/sqlite/open-database';
import { UsageEventIdIndex } from '../projections/usage-ids/usage-event-ids';
import { heldBytes } from './held-memory';
import { usageBatchAppended } from './usage-batch';

export type UsageIdIndexFigures = Readonly<{
  ids: number;
  events: number;
  scanMs: number;
  startMs: number;
  /** Heap and array buffers the index holds once read, in MB. */
  heldMb: number;
  /** Its snapshot written at stop; a start from it. */
  snapshotWriteMs: number;
  snapshotStartMs: number;
  /** One lookup of 100 ids none of which is stored; of 100 stored ones. */
  lookupNewUs: number;
  lookupStoredUs: number;
}>;

const PER_EVENT = 100;
const SUBSCRIPTIONS = 1000;

/**
 * What the usage event id index costs a service that starts on a log holding `ids` random (UUID)
 * usage event ids, 100 an event over 1,000 subscriptions: the time to read them (beside its
 * baseline, a raw scan of the same log in the same run), the memory it holds, a batch's lookup,
 * and its snapshot: written at stop, then a start from it.
 */
export const usageIdIndexBench = async (ids: number): Promise<UsageIdIndexFigures> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-usage-ids-'));
  const db = openDatabase(join(dataDir, 'billing.sqlite'));
  const store = new SqliteEventStore(db);
  const events = Math.ceil(ids / PER_EVENT);
  const stored: string[] = [];
  const appendMany = db.transaction((from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const batch = Array.from({ length: PER_EVENT }, () => randomUUID());
      if (k % 100 === 0) stored.push(...batch);
      const subscriptionId = `sub_bench${k % SUBSCRIPTIONS}`;
      void store.append(usageStream(subscriptionId), [usageBatchAppended(subscriptionId, batch)], 'any');
    }
  });
  for (let k = 0; k < events; k += 1000) appendMany(k, Math.min(k + 1000, events));

  let started = performance.now();
  for (let after = 0n; ; ) {
    const batch = await store.readAll(after, 2000);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.position;
  }
  const scanMs = performance.now() - started;

  const before = await heldBytes();
  const snapshot = { path: join(dataDir, 'usage-event-ids.snapshot'), everyIds: Number.MAX_SAFE_INTEGER };
  const index = new UsageEventIdIndex(store, silentLogger(), { snapshot });
  started = performance.now();
  await index.start();
  const startMs = performance.now() - started;
  await index.settled();
  const heldMb = ((await heldBytes()) - before) / 1024 / 1024;

  const time = async (eventIds: readonly string[]) => {
    const rounds = 2000;
    const begun = performance.now();
    for (let round = 0; round < rounds; round++) await index.holdersOf('org_bench', 'sub_bench', eventIds);
    return ((performance.now() - begun) * 1000) / rounds;
  };
  const lookupNewUs = await time(Array.from({ length: PER_EVENT }, () => randomUUID()));
  const lookupStoredUs = await time(stored.slice(0, PER_EVENT));
  started = performance.now();
  await index.stop();
  const snapshotWriteMs = performance.now() - started;
  const restarted = new UsageEventIdIndex(store, silentLogger(), { snapshot });
  started = performance.now();
  await restarted.start();
  const snapshotStartMs = performance.now() - started;
  await restarted.stop();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { ids: events * PER_EVENT, events, scanMs, startMs, heldMb, snapshotWriteMs, snapshotStartMs, lookupNewUs, lookupStoredUs };
};

export const formatUsageIdIndex = (figures: UsageIdIndexFigures): string =>
  [
    `  baseline: raw scan of the log (${figures.events} events)   ${figures.scanMs.toFixed(0)} ms`,
    `  index read from the log at start        ${figures.startMs.toFixed(0)} ms (${(figures.startMs / figures.scanMs).toFixed(2)} × the scan), ${(figures.ids / (figures.startMs / 1000)).toFixed(0)} ids/s`,
    `  held in memory                          ${figures.heldMb.toFixed(1)} MB (${((figures.heldMb * 1024 * 1024) / figures.ids).toFixed(1)} bytes an id)`,
    `  its snapshot written at stop            ${figures.snapshotWriteMs.toFixed(0)} ms; a start from it ${figures.snapshotStartMs.toFixed(0)} ms`,
    `  lookup of a batch of 100 ids            ${figures.lookupNewUs.toFixed(1)} µs none stored, ${figures.lookupStoredUs.toFixed(1)} µs all stored`,
  ].join('\n');
