import type { Month } from '../../domain/reports/months';
import { firstMonths, type MrrRow, mrrRows, type Range, type RevenueRow, revenueRows } from '../../domain/reports/report-rows';
import type { ReadStore } from '../../infra/read-store/port';
import { REVENUE_MONTHS, toRevenueMonth } from '../read-models/revenue-reports/invoiced-revenue';
import { MRR_MONTHS, toMrrMonth } from '../read-models/revenue-reports/mrr-movements';
import { historyAt } from '../read-models/revenue-reports/report-history';
import type { MonthDoc } from '../read-models/revenue-reports/report-months';
import { lastResetUpTo } from '../read-models/revenue-reports/report-organisations';

export type ReportRequest = Readonly<{
  organisationId: string;
  range: Range;
  /** One currency's rows only; null: every currency's. */
  currency: string | null;
  /** A recording instant: the rows a report asked then gave (only the events recorded up to it count); null: now. */
  asOf: Date | null;
}>;

/** The revenue reports' read model (its live generation). */
export type ReportStores = Readonly<{ readStore: Pick<ReadStore, 'findAll' | 'get' | 'getMany'> }>;

type Months = Readonly<{ mrr: MonthDoc[]; revenue: MonthDoc[] }>;

const liveMonths = async (readStore: ReportStores['readStore'], organisationId: string): Promise<Months> => {
  const where = [{ field: '_organisation', eq: organisationId }];
  const [mrr, revenue] = await Promise.all([readStore.findAll<MonthDoc>(MRR_MONTHS, where), readStore.findAll<MonthDoc>(REVENUE_MONTHS, where)]);
  return { mrr, revenue };
};

/** The months as they stood at a recorded instant, summed from the changes recorded up to it: the months a report asked then read. */
const monthsAsOf = async (readStore: ReportStores['readStore'], organisationId: string, asOf: Date): Promise<Months> => {
  const history = await historyAt(readStore, organisationId, asOf.toISOString(), await lastResetUpTo(readStore, organisationId, asOf));
  return { mrr: (history.get(MRR_MONTHS) ?? []) as MonthDoc[], revenue: (history.get(REVENUE_MONTHS) ?? []) as MonthDoc[] };
};

/** The months a report reads, and where each currency's rows start (its first month in either report). */
const reportMonths = async ({ readStore }: ReportStores, request: ReportRequest) => {
  const months = request.asOf ? await monthsAsOf(readStore, request.organisationId, request.asOf) : await liveMonths(readStore, request.organisationId);
  const chosen = (docs: readonly MonthDoc[]) => (request.currency === null ? docs : docs.filter((doc) => doc.currency === request.currency));
  const mrr = chosen(months.mrr).map(toMrrMonth);
  const revenue = chosen(months.revenue).map(toRevenueMonth);
  return { mrr, revenue, firsts: firstMonths(mrr, revenue) as ReadonlyMap<string, Month> };
};

/**
 * The MRR report of an organisation: a row per month of the range and currency, oldest first, read
 * from the months the revenue reports' read model holds (a few documents a month, whatever the
 * number of subscriptions), or those it held at an instant. What the admin API, the operator
 * command and the console all answer.
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
