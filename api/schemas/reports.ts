import { z } from 'zod';
import { formatMoney } from '../../domain/pricing/money';
import { isMonth, monthCount } from '../../domain/reports/months';
import type { MrrRow, RevenueRow } from '../../domain/reports/report-rows';
import { amountOutput } from '../../projections/read-models/amount';
import { mrrReport, type ReportRequest, type ReportStores, revenueReport } from '../../projections/queries/revenue-reports';
import { currencySchema } from './organisation';

/** A report spans at most this many months. */
export const MAX_REPORT_MONTHS = 120;

const month = z
  .string()
  .regex(/^\d{4}-\d{2}$/, 'must be a month YYYY-MM, e.g. 2026-03')
  .refine(isMonth, 'must be a month from 1970-01 to 9999-12');

/** ISO 4217 codes, as ICU knows them: a code no currency has is refused rather than answered with no rows. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** `from`, `to`, `currency`, `as_of`: both reports' query. */
export const reportQuery = z
  .strictObject({
    from: month.describe('First month, YYYY-MM, in the organisation’s timezone'),
    to: month.describe(`Last month, YYYY-MM; at most ${MAX_REPORT_MONTHS} months from from`),
    currency: currencySchema.refine((code) => CURRENCIES.has(code), 'is not an ISO 4217 currency code').optional().describe('One currency’s rows only (ISO 4217)'),
    as_of: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('ISO 8601 recording instant: the rows a report asked then gave (events recorded up to then); default now'),
  })
  .superRefine((query, context) => {
    if (query.from > query.to) context.addIssue({ code: 'custom', path: ['from'], message: `${query.from} is after to (${query.to}).` });
    else if (monthCount(query.from, query.to) > MAX_REPORT_MONTHS) {
      context.addIssue({ code: 'custom', path: ['to'], message: `${query.from} to ${query.to} is ${monthCount(query.from, query.to)} months; a report spans at most ${MAX_REPORT_MONTHS}.` });
    }
  });
export type ReportQuery = z.infer<typeof reportQuery>;

const monthField = z.string().describe('YYYY-MM, in the organisation’s timezone');

export const mrrRowObject = z
  .object({
    month: monthField,
    currency: z.string(),
    opening_mrr: amountOutput,
    new: amountOutput,
    expansion: amountOutput,
    contraction: amountOutput,
    churn: amountOutput,
    reactivation: amountOutput,
    closing_mrr: amountOutput,
    arr: amountOutput.describe('closing_mrr × 12'),
    active_subscriptions: z.number().int().describe('Subscriptions with MRR at the month’s end'),
  })
  .meta({ id: 'MrrReportRow' });
export type MrrRowObject = z.infer<typeof mrrRowObject>;

export const revenueRowObject = z
  .object({
    month: monthField,
    currency: z.string(),
    new_subscription: amountOutput,
    expansion: amountOutput,
    renewal: amountOutput,
    usage: amountOutput,
    credits: amountOutput.describe('The month’s credit notes, a positive figure'),
    total: amountOutput.describe('The sum of the four revenue types, each net of the credit notes reversing it'),
  })
  .meta({ id: 'RevenueReportRow' });
export type RevenueRowObject = z.infer<typeof revenueRowObject>;

const reportOf = <Row extends z.ZodType>(row: Row) => z.object({ object: z.literal('list'), data: z.array(row) });

const toMrrRowObject = (row: MrrRow): MrrRowObject => ({
  month: row.month,
  currency: row.currency,
  opening_mrr: formatMoney(row.opening),
  new: formatMoney(row.movements.new),
  expansion: formatMoney(row.movements.expansion),
  contraction: formatMoney(row.movements.contraction),
  churn: formatMoney(row.movements.churn),
  reactivation: formatMoney(row.movements.reactivation),
  closing_mrr: formatMoney(row.closing),
  arr: formatMoney(row.closing * 12n),
  active_subscriptions: row.activeSubscriptions,
});

const toRevenueRowObject = (row: RevenueRow): RevenueRowObject => ({
  month: row.month,
  currency: row.currency,
  new_subscription: formatMoney(row.revenue.new_subscription),
  expansion: formatMoney(row.revenue.expansion),
  renewal: formatMoney(row.revenue.renewal),
  usage: formatMoney(row.revenue.usage),
  credits: formatMoney(row.credits),
  total: formatMoney(row.total),
});

/**
 * A report's rows as CSV: a header line of the row's fields, then a line a row, amounts as in JSON.
 * Every value is a month, an ISO currency code, a decimal amount or a whole number, none of which
 * RFC 4180 ever quotes, so no CSV library is needed to write them.
 */
const csvOf = (columns: readonly string[], rows: readonly Record<string, string | number>[]): string =>
  [columns, ...rows.map((row) => columns.map((column) => String(row[column])))].map((cells) => `${cells.join(',')}\n`).join('');

const reportKind = <Row extends z.ZodObject>(row: Row, rows: (stores: ReportStores, request: ReportRequest) => Promise<z.infer<Row>[]>) => {
  const columns = Object.keys(row.shape);
  return {
    /** The answer's shape: `{object: "list", data: [row…]}`. */
    response: reportOf(row),
    columns,
    /** The report's rows as the API shows them: what the admin routes, the operator command and the console answer. */
    rows,
    /** An answer's rows (`{data}`) as CSV. */
    csv: (body: unknown) => csvOf(columns, (body as { data: Record<string, string | number>[] }).data),
  };
};

/** The two reports, each read once here for every caller. */
export const REPORTS = {
  mrr: reportKind(mrrRowObject, async (stores, request) => (await mrrReport(stores, request)).map(toMrrRowObject)),
  revenue: reportKind(revenueRowObject, async (stores, request) => (await revenueReport(stores, request)).map(toRevenueRowObject)),
};
export type ReportKind = keyof typeof REPORTS;

/** The request a report query makes of an organisation. */
export const reportRequest = (organisationId: string, query: ReportQuery): ReportRequest => ({
  organisationId,
  range: { from: query.from, to: query.to },
  currency: query.currency ?? null,
  asOf: query.as_of === undefined ? null : new Date(query.as_of),
});
