import type { Request, Response, Router } from 'express';
import { DateTime } from 'luxon';
import type { OrganisationDoc } from '../../../projections/read-models/organisations';
import type { ApiDeps } from '../../deps';
import { toApiError } from '../../middleware/error-handler';
import { type MrrRowObject, type ReportKind, REPORTS, reportQuery, reportRequest, type RevenueRowObject } from '../../schemas/reports';
import { parseOrThrow } from '../../validation';
import { page } from '../page';
import { organisationOf, organisationPath } from './organisation';
import { formQuery } from './paging';

const REPORT_FIELDS = ['from', 'to', 'currency', 'as_of'] as const;

/** The report query a revenue page asks: what was typed, else the twelve months to this one in the organisation's timezone. */
const typedQuery = (deps: ApiDeps, organisation: OrganisationDoc, req: Request): Record<string, string> => {
  const now = DateTime.fromJSDate(deps.clocks.forOrganisation(organisation.id).now(), { zone: organisation.timezone });
  return { from: now.minus({ months: 11 }).toFormat('yyyy-MM'), to: now.toFormat('yyyy-MM'), ...formQuery(req.query, REPORT_FIELDS) };
};

/** What the charts draw, one per currency in the rows' order: each month's closing MRR as what was kept and what each movement added. */
export const chartsOf = (rows: readonly MrrRowObject[]) =>
  [...new Set(rows.map((row) => row.currency))].map((currency) => {
    const shown = rows.filter((row) => row.currency === currency);
    // Figures for drawing only: the table beside shows them exact.
    const part = (pick: (row: MrrRowObject) => number) => shown.map(pick);
    return {
      currency,
      months: shown.map((row) => row.month),
      series: [
        { label: 'Kept', values: part((row) => Number(row.closing_mrr) - Number(row.new) - Number(row.expansion) - Number(row.reactivation)) },
        { label: 'New', values: part((row) => Number(row.new)) },
        { label: 'Expansion', values: part((row) => Number(row.expansion)) },
        { label: 'Reactivation', values: part((row) => Number(row.reactivation)) },
      ],
    };
  });

/** The MRR and invoiced revenue reports the admin API serves, as tables, a chart of MRR by month, and CSV downloads. */
export const revenuePages = (router: Router, deps: ApiDeps): void => {
  const requestOf = async (req: Request) => {
    const organisation = await organisationOf(deps, req);
    const typed = typedQuery(deps, organisation, req);
    return { organisation, typed, request: () => reportRequest(organisation.id, parseOrThrow(reportQuery, typed)) };
  };

  page(router, '/organisations/:org/revenue', async (req) => {
    const { organisation, typed, request } = await requestOf(req);
    let reports: { mrr: MrrRowObject[]; revenue: RevenueRowObject[] } | null = null;
    let refused: string | null = null;
    try {
      const asked = request();
      const [mrr, revenue] = await Promise.all([REPORTS.mrr.rows(deps, asked), REPORTS.revenue.rows(deps, asked)]);
      reports = { mrr, revenue };
    } catch (error) {
      // A query the API refuses is said beside the form, as a refused filter is.
      const refusal = toApiError(error);
      if (refusal?.status !== 422) throw error;
      refused = refusal.message;
    }
    const download = (kind: ReportKind) => `${organisationPath(organisation.id, `/revenue/${kind}.csv`)}?${new URLSearchParams(typed).toString()}`;
    return {
      view: 'revenue',
      title: 'Revenue',
      organisation,
      data: { typed, reports, refused, downloads: { mrr: download('mrr'), revenue: download('revenue') }, charts: reports ? chartsOf(reports.mrr).map((chart) => ({ currency: chart.currency, series: JSON.stringify(chart) })) : [] },
    };
  });

  for (const kind of ['mrr', 'revenue'] as const) {
    router.get(`/organisations/:org/revenue/${kind}.csv`, async (req: Request, res: Response) => {
      const { typed, request } = await requestOf(req);
      const data = await REPORTS[kind].rows(deps, request());
      res.set('Cache-Control', 'no-store').type('text/csv').attachment(`${kind}-${typed.from}-${typed.to}.csv`).send(REPORTS[kind].csv({ data }));
    });
  }
};
