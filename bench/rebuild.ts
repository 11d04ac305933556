import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { invoiceCommand } from '../commands/invoice/invoice-command';
import { loadConfig } from '../infra/config';
import type { NewEvent, StoredEvent } from '../infra/event-store/port';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { silentLogger } from '../infra/logger';
import { SqliteReadStore } from '../infra/read-store/sqlite';
import { openDatabase } from '../infra/sqlite/open-database';
import { allProjections } from '../projections/all';
import { ProjectionRunner } from '../projections/runner';
import { startService } from '../service/server';
import { databaseFile } from '../service/services';

export type RebuildFigures = Readonly<{
  events: number;
  scanPerSecond: number;
  rebuildPerSecond: number;
  foldMs: { p50: number; p99: number };
}>;

const BATCH = 500;

/**
 * A log of at least `target` realistic events: the streams one subscription creation writes over
 * HTTP (customer, subscription, invoice raised and synced), recorded once by the real service and
 * copied under fresh ids, so every projection has real work to do.
 */
export const buildLog = async (target: number): Promise<string> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-rebuild-'));
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-0123456789' }),
    silentLogger(),
  );
  const response = await fetch(`${service.url}/v1/subscriptions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${service.demo!.apiKey}`, 'Idempotency-Key': 'template' },
    body: JSON.stringify({ customer_code: 'TEMPLATE', create_customer: { name: 'Template Ltd' }, plan_code: 'team', units: 3 }),
  });
  const { id: subscriptionId, customer: customerId, invoice } = (await response.json()) as { id: string; customer: string; invoice: { id: string } };
  await service.stop();

  const db = openDatabase(databaseFile(dataDir));
  const store = new SqliteEventStore(db);
  const streams = await Promise.all([`customer-${customerId}`, `subscription-${subscriptionId}`, `invoice-${invoice.id}`].map((s) => store.readStream(s)));
  const template = streams.map((events) => events.map((e) => ({ ...e, data: JSON.stringify(e.data) })));
  const perCopy = template.reduce((n, events) => n + events.length, 0);
  const copies = Math.ceil((target - Number(await store.headPosition())) / perCopy);
  const renamed = (text: string, i: number) =>
    text.replaceAll(subscriptionId, `sub_bench${i}`).replaceAll(customerId, `cus_bench${i}`).replaceAll(invoice.id, `inv_bench${i}`);
  const copy = (event: StoredEvent & { data: string }, i: number): NewEvent => ({
    id: randomUUID(),
    type: event.type,
    version: event.version,
    data: JSON.parse(renamed(event.data, i)) as unknown,
    metadata: event.metadata,
  });
  // Thousands of appends per transaction: the bench measures reading the log, not writing it.
  const appendCopies = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      for (const events of template) void store.append(renamed(events[0]!.streamId, i), events.map((e) => copy(e, i)), 'no_stream');
    }
  });
  for (let i = 0; i < copies; i += 2000) appendCopies(i, Math.min(i + 2000, copies));
  // One stream of 1,000 events to fold: an invoice raised, then 999 failed pushes.
  const [raised] = streams[2]!;
  const failed = { ...copy({ ...raised!, data: '{}' }, 0), type: 'InvoiceSyncFailed', data: { invoiceId: 'inv_long', error: 'Locked period' } };
  await store.append('invoice-inv_long', [copy({ ...raised!, data: JSON.stringify(raised!.data).replaceAll(invoice.id, 'inv_long') }, 0)], 'no_stream');
  await store.append('invoice-inv_long', Array.from({ length: 999 }, () => ({ ...failed, id: randomUUID() })), 0);
  db.close();
  return dataDir;
};

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * The rebuild rate of every read model over a log of `target` events, beside its baseline: a raw
 * scan of the same log (`readAll` in the runner's batch size, nothing decoded or written), measured
 * in the same run; and the time to fold one stream of 1,000 events as a command handler loads it.
 */
export const rebuildBench = async (target: number): Promise<RebuildFigures> => {
  const dataDir = await buildLog(target);
  const db = openDatabase(databaseFile(dataDir));
  const store = new SqliteEventStore(db);
  const events = Number(await store.headPosition());

  let scanned = 0;
  const scanStart = performance.now();
  for (let after = 0n; ; ) {
    const batch = await store.readAll(after, BATCH);
    if (batch.length === 0) break;
    scanned += batch.length;
    after = batch[batch.length - 1]!.position;
  }
  const scanPerSecond = scanned / ((performance.now() - scanStart) / 1000);

  const runner = new ProjectionRunner(store, new SqliteReadStore(db), allProjections, silentLogger(), { batchSize: BATCH });
  await runner.init();
  // The live generation up to date first, as beside a running service: the rebuild is measured, not a catch-up.
  await runner.catchUp();
  const rebuildStart = performance.now();
  runner.startRebuild(null, { verify: false });
  const rebuilt = await runner.rebuilt();
  if (rebuilt?.status !== 'switched') throw new Error(`rebuild ${rebuilt?.status ?? 'missing'}: ${rebuilt?.error ?? ''}`);
  const rebuildPerSecond = rebuilt.events / ((performance.now() - rebuildStart) / 1000);
  await runner.stop();

  const folds: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    const { state } = await invoiceCommand.load(store, 'inv_long');
    folds.push(performance.now() - t0);
    if (state.status !== 'raised' || state.sync !== 'failed') throw new Error('the long stream did not fold as expected');
  }
  folds.sort((a, b) => a - b);
  db.close();
  return { events, scanPerSecond, rebuildPerSecond, foldMs: { p50: percentile(folds, 50), p99: percentile(folds, 99) } };
};

export const formatRebuild = (figures: RebuildFigures): string =>
  [
    `log of ${figures.events} events (SQLite)`,
    `  baseline: raw readAll scan            ${figures.scanPerSecond.toFixed(0).padStart(9)} events/s`,
    `  blue/green rebuild, every read model  ${figures.rebuildPerSecond.toFixed(0).padStart(9)} events/s   (${(figures.rebuildPerSecond / figures.scanPerSecond).toFixed(3)} × the scan)`,
    `  fold one stream of 1,000 events       p50 ${figures.foldMs.p50.toFixed(2)} ms   p99 ${figures.foldMs.p99.toFixed(2)} ms`,
  ].join('\n');
