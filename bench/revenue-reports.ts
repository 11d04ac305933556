import { rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import { addDays, periodStart } from '../domain/pricing/calendar';
import type { SubscriptionCreatedData } from '../domain/subscription/events';
import type { SubscriptionUnitsChangedData } from '../domain/subscription/lifecycle-events';
import type { EventMetadata, NewEvent } from '../infra/event-store/port';
import { SqliteEventStore } from '../infra/event-store/sqlite';
import { silentLogger } from '../infra/logger';
import { SqliteReadStore } from '../infra/read-store/sqlite';
import { openDatabase } from '../infra/sqlite/open-database';
import { MRR_MONTHS } from '../projections/read-models/revenue-reports/mrr-movements';
import { ProjectionRunner } from '../projections/engine/runner';
import { mrrReport, type ReportRequest, revenueReport } from '../projections/queries/revenue-reports';
import { revenueReportsProjection } from '../projections/read-models/revenue-reports/revenue-reports';
import { databaseFile } from '../service/services';
import { appendedEvent } from './appended-event';
import { recordTemplate, type TemplateLog } from './template-log';
import { type Timing, timed } from './timed';

export type ReportFigures = Readonly<{
  subscriptions: number;
  events: number;
  /** The read model caught up from the log, events/s (what a rebuild of it costs). */
  projectedPerSecond: number;
  monthsMs: Timing;
  mrrMs: Timing;
  revenueMs: Timing;
  asOfMs: Timing;
}>;

const FIRST = '2016-01-01';
const DAYS = 3_650;
/** When the copies were recorded: one a second from here, so `as_of` halfway holds half of them. */
const RECORDED_FROM = Date.parse('2026-01-01T00:00:00.000Z');

const recordedAt = (metadata: EventMetadata, i: number, businessDate: string): EventMetadata => ({
  ...metadata,
  recordedTime: new Date(RECORDED_FROM + i * 1000).toISOString(),
  businessTime: `${businessDate}T12:00:00.000Z`,
});

/**
 * Copy `i` of the template's creation, as a subscription of ten years' span: started on a day of
 * 2016–2025, in pounds or euros, with 2 to 10 seats; a third of them add 3 seats 45 days in, a fifth
 * end 400 days in.
 */
const history = (template: TemplateLog, i: number): { streamId: string; events: NewEvent[] }[] => {
  const start = addDays(FIRST, (i * 7_919) % DAYS);
  const currency = i % 2 === 0 ? 'GBP' : 'EUR';
  const [customer, subscription, invoice] = template.copy(i).map(({ streamId, events }) => ({
    streamId,
    events: events.map((event) => ({ ...event, metadata: recordedAt(event.metadata, i, start) })),
  })) as [Copied, Copied, Copied];
  const created = subscription.events[0]!;
  const data = created.data as SubscriptionCreatedData;
  const started: SubscriptionCreatedData = { ...data, currency, startDate: start, currentPeriodStart: start, renewalDate: periodStart(start, data.interval, 1), units: 2 + (i % 9) };
  const lifecycle: NewEvent[] = [];
  if (i % 3 === 0) {
    const effectiveDate = addDays(start, 45);
    const change: SubscriptionUnitsChangedData = {
      subscriptionId: data.subscriptionId,
      changeId: `chg_r${i}`,
      changedAt: `${effectiveDate}T12:00:00.000Z`,
      previousUnits: started.units,
      units: started.units + 3,
      prorate: true,
      prorationBehaviour: 'charge_immediately',
      effectiveDate,
      document: null,
      periodStart: effectiveDate,
      renewalDate: addDays(effectiveDate, 30),
      periodUnits: started.units + 3,
      proration: { daysLeft: 30, daysInPeriod: 30, numerator: '0', amount: '0.0000' },
      invoiceId: null,
      creditNoteId: null,
      creditedInvoiceId: null,
      renewalAdjustment: null,
    };
    lifecycle.push(appendedEvent('SubscriptionUnitsChanged', change, recordedAt(created.metadata, i, effectiveDate)));
  }
  if (i % 5 === 0) {
    const endDate = addDays(start, 400);
    const ended = { subscriptionId: data.subscriptionId, operationId: `end_r${i}`, endedAt: `${endDate}T12:00:00.000Z`, endDate, invoiceUsageNow: false, removals: [] };
    lifecycle.push(appendedEvent('SubscriptionEnded', ended, recordedAt(created.metadata, i, endDate)));
  }
  const dated = (event: NewEvent): NewEvent =>
    event.type === 'InvoiceRaised' ? { ...event, data: { ...(event.data as object), currency, invoiceDate: `${start}T12:00:00.000Z` } } : event;
  return [customer, { ...subscription, events: [{ ...created, data: started }, ...lifecycle] }, { ...invoice, events: invoice.events.map(dated) }];
};
type Copied = { streamId: string; events: NewEvent[] };

/**
 * The revenue reports over `subscriptions` subscriptions of one organisation spread over ten years:
 * the read model caught up from the log, then a 120-month MRR and revenue report, and an MRR report
 * as of an instant halfway through the recording, beside the read of the months' documents they are
 * built from.
 */
export const reportsBench = async (subscriptions: number): Promise<ReportFigures> => {
  const template = await recordTemplate();
  const db = openDatabase(databaseFile(template.dataDir));
  const store = new SqliteEventStore(db);
  const appendCopies = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) for (const { streamId, events } of history(template, i)) void store.append(streamId, events, 'no_stream');
  });
  for (let i = 0; i < subscriptions; i += 2_000) appendCopies(i, Math.min(i + 2_000, subscriptions));
  const events = Number(await store.headPosition());

  const readStore = new SqliteReadStore(db);
  const runner = new ProjectionRunner(store, readStore, [revenueReportsProjection], silentLogger(), { batchSize: 500 });
  await runner.init();
  const projecting = performance.now();
  await runner.catchUp();
  const projectedPerSecond = events / ((performance.now() - projecting) / 1000);

  const stores = { readStore: runner.readStore };
  const request: ReportRequest = { organisationId: template.organisationId, range: { from: '2016-01', to: '2025-12' }, currency: null, asOf: null };
  const live = await mrrReport(stores, request);
  if (live.length !== 240) throw new Error(`expected 120 months of 2 currencies, got ${live.length} rows`);
  // As of an instant after the last recording: the very rows the read model gives now.
  if (!isDeepStrictEqual(await mrrReport(stores, { ...request, asOf: new Date(RECORDED_FROM + subscriptions * 1000) }), live)) throw new Error('as of now differs from now');
  const monthsMs = await timed(50, () => runner.readStore.findAll(MRR_MONTHS, [{ field: '_organisation', eq: template.organisationId }]));
  const mrrMs = await timed(50, () => mrrReport(stores, request));
  const revenueMs = await timed(50, () => revenueReport(stores, request));
  const halfway = new Date(RECORDED_FROM + (subscriptions / 2) * 1000 + 500);
  const asOfMs = await timed(50, () => mrrReport(stores, { ...request, asOf: halfway }));

  await runner.stop();
  db.close();
  rmSync(template.dataDir, { recursive: true, force: true });
  return { subscriptions, events, projectedPerSecond, monthsMs, mrrMs, revenueMs, asOfMs };
};

const ms = (t: Timing) => `p50 ${t.p50.toFixed(1).padStart(7)} ms   p99 ${t.p99.toFixed(1).padStart(7)} ms`;

export const formatReports = (f: ReportFigures): string =>
  [
    `${f.subscriptions} subscriptions over 120 months in 2 currencies, a log of ${f.events} events (SQLite); the read model caught up at ${f.projectedPerSecond.toFixed(0)} events/s`,
    `  baseline: read the months' documents   ${ms(f.monthsMs)}`,
    `  MRR report, 120 months                ${ms(f.mrrMs)}   (${(f.mrrMs.p50 / f.monthsMs.p50).toFixed(1)} × the read; bound 1,000 ms)`,
    `  revenue report, 120 months            ${ms(f.revenueMs)}`,
    `  MRR report as of an instant halfway   ${ms(f.asOfMs)}   (${(f.asOfMs.p50 / f.monthsMs.p50).toFixed(1)} × the read; bound 5,000 ms)`,
  ].join('\n');
