import { decodeEvent } from '../domain/decode-event';
import type { Month } from '../domain/reports/months';
import { firstMonths, type MrrRow, mrrRows, type Range, type RevenueRow, revenueRows } from '../domain/reports/report-rows';
import type { EventStore } from '../infra/event-store/port';
import type { ReadStore } from '../infra/read-store/port';
import { REVENUE_MONTHS, toRevenueMonth } from './invoiced-revenue';
import { MRR_MONTHS, toMrrMonth } from './mrr-movements';
import { memoryContext } from './replay';
import type { MonthDoc } from './report-months';
import { revenueReportsProjection } from './revenue-reports';
import { emptiedBySandboxReset } from './sandbox-reset';

export type ReportRequest = Readonly<{
  organisationId: string;
  range: Range;
  /** One currency's rows only; null: every currency's. */
  currency: string | null;
  /** A recording instant: the rows a report asked then gave (only the events recorded up to it count); null: now. */
  asOf: Date | null;
}>;

export type ReportStores = Readonly<{ store: EventStore; readStore: Pick<ReadStore, 'findAll'> }>;

type Months = Readonly<{ mrr: MonthDoc[]; revenue: MonthDoc[] }>;

/** Events the log is read in, as of an instant. */
const READ_BATCH = 1_000;

/**
 * The organisation's months as the read model held them at `asOf`: its events recorded up to then
 * run through the very projection that keeps the read model, in memory. There is no second
 * implementation, so these are the months a report asked at that instant read.
 */
const monthsAsOf = async (store: EventStore, organisationId: string, asOf: Date): Promise<Months> => {
  const projection = emptiedBySandboxReset(revenueReportsProjection);
  const handled = new Set(projection.handles);
  const context = memoryContext();
  const upTo = asOf.getTime();
  for (let after = 0n; ; ) {
    const batch = await store.readAll(after, READ_BATCH);
    if (batch.length === 0) break;
    for (const event of batch) {
      if (handled.has(event.type) && event.metadata.organisationId === organisationId && Date.parse(event.metadata.recordedTime) <= upTo) {
        await projection.apply(decodeEvent(event), context);
      }
    }
    after = batch[batch.length - 1]!.position;
  }
  return { mrr: context.documents(MRR_MONTHS) as MonthDoc[], revenue: context.documents(REVENUE_MONTHS) as MonthDoc[] };
};

const liveMonths = async (readStore: ReportStores['readStore'], organisationId: string): Promise<Months> => {
  const where = [{ field: '_organisation', eq: organisationId }];
  const [mrr, revenue] = await Promise.all([readStore.findAll<MonthDoc>(MRR_MONTHS, where), readStore.findAll<MonthDoc>(REVENUE_MONTHS, where)]);
  return { mrr, revenue };
};

/** The months a report reads, and where each currency's rows start (its first month in either report). */
const reportMonths = async (stores: ReportStores, request: ReportRequest) => {
  const months = request.asOf ? await monthsAsOf(stores.store, request.organisationId, request.asOf) : await liveMonths(stores.readStore, request.organisationId);
  const chosen = (docs: readonly MonthDoc[]) => (request.currency === null ? docs : docs.filter((doc) => doc.currency === request.currency));
  const mrr = chosen(months.mrr).map(toMrrMonth);
  const revenue = chosen(months.revenue).map(toRevenueMonth);
  return { mrr, revenue, firsts: firstMonths(mrr, revenue) as ReadonlyMap<string, Month> };
};

/**
 * The MRR report of an organisation: a row per month of the range and currency, oldest first, read
 * from the months the revenue reports' read model holds (a few documents a month, whatever the
 * number of subscriptions), or as of an instant. What the admin API and the console both answer.
 */
export const mrrReport = async (stores: ReportStores, request: ReportRequest): Promise<MrrRow[]> => {
  const { mrr, firsts } = await reportMonths(stores, request);
  return mrrRows(mrr, firsts, request.range);
};

/** The invoiced revenue report of an organisation, as `mrrReport`. */
export const revenueReport = async (stores: ReportStores, request: ReportRequest): Promise<RevenueRow[]> => {
  const { revenue, firsts } = await reportMonths(stores, request);
  return revenueRows(revenue, firsts, request.range);
};
