import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { aggregateStatesOf } from '../commands/plumbing/aggregate-states';
import { customerCommand } from '../commands/plumbing/customer-command';
import { invoiceCommand } from '../commands/plumbing/invoice-command';
import { subscriptionCommand } from '../commands/plumbing/subscription-command';
import { loadConfig } from '../infra/config';
import { silentLogger } from '../infra/logger';
import { openServices } from '../service/services';
import { recordTemplate } from './template-log';

export type MemoryFigures = Readonly<{
  events: number;
  seconds: number;
  /** Resident set and JS heap (after a full collection) before the first append and after the last. */
  before: { rssMb: number; heapMb: number };
  after: { rssMb: number; heapMb: number };
  keptStates: number;
}>;

/** Copies of the creation's streams appended per transaction (the stores' writes, grouped as a busy service groups them). */
const COPIES_PER_COMMIT = 100;
/** Invoices whose pushes keep failing: streams that grow through the run, loaded by the handlers again and again. */
const LONG_STREAMS = 20;

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
const footprint = () => {
  collect();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMb: megabytes(rss), heapMb: megabytes(heapUsed) };
};

/**
 * The service's resident memory after `target` events: its embedded stores opened as the service
 * opens them, the projections following the log, and the command handlers loading what was
 * written (so every in-process cache fills up to its bound). The traffic is the creation's streams
 * (customer, subscription, invoice raised and synced) copied under fresh ids, with a few invoice
 * streams that keep growing and are loaded on every round.
 */
export const memoryBench = async (target: number): Promise<MemoryFigures> => {
  const template = await recordTemplate();
  const services = await openServices(
    loadConfig({ DATA_DIR: template.dataDir, PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-0123456789' }),
    silentLogger(),
  );
  const { db, store, projections } = services;
  await projections.start();
  for (let k = 0; k < LONG_STREAMS; k++) await store.append(`invoice-inv_long${k}`, template.longInvoice(`inv_long${k}`, 0), 'no_stream');
  const before = footprint();
  const started = performance.now();
  let events = 0;
  const appendRound = db.transaction((from: number) => {
    for (let i = from; i < from + COPIES_PER_COMMIT; i++) for (const { streamId, events: copied } of template.copy(i)) void store.append(streamId, copied, 'no_stream');
    for (let k = 0; k < LONG_STREAMS; k++) void store.append(`invoice-inv_long${k}`, template.longInvoice(`inv_long${k}`, 1).slice(1), 'any');
  });
  for (let round = 0; events < target; round++) {
    const from = round * COPIES_PER_COMMIT;
    appendRound(from);
    events += COPIES_PER_COMMIT * template.perCopy + LONG_STREAMS;
    for (let i = from; i < from + COPIES_PER_COMMIT; i += 10) {
      await customerCommand.load(store, `cus_bench${i}`);
      await subscriptionCommand.load(store, `sub_bench${i}`);
      await invoiceCommand.load(store, `inv_bench${i}`);
    }
    for (let k = 0; k < LONG_STREAMS; k++) await invoiceCommand.load(store, `inv_long${k}`);
    if (!(await projections.waitFor(await store.headPosition(), 120_000))) throw new Error('the projections did not keep up');
  }
  const seconds = (performance.now() - started) / 1000;
  const after = footprint();
  const keptStates = aggregateStatesOf(store).size;
  await services.close();
  // About 2 GB at the default size: not left behind.
  rmSync(template.dataDir, { recursive: true, force: true });
  return { events, seconds, before, after, keptStates };
};

export const formatMemory = (figures: MemoryFigures): string =>
  [
    `${figures.events} events appended through the service's stores in ${figures.seconds.toFixed(0)} s (${(figures.events / figures.seconds).toFixed(0)} events/s, projections following)`,
    `  baseline: before the first append    RSS ${String(figures.before.rssMb).padStart(5)} MB   heap ${figures.before.heapMb} MB`,
    `  after the last                       RSS ${String(figures.after.rssMb).padStart(5)} MB   heap ${figures.after.heapMb} MB   (${figures.keptStates} aggregate states kept)`,
  ].join('\n');
