import type { Router } from 'express';
import type { ApiDeps } from '../deps';
import { type RouteRegistry, route } from '../route';
import { type ReportKind, REPORTS, reportQuery, reportRequest } from '../schemas/reports';
import { findOrganisation } from './organisations';

const COMMON =
  'Months are calendar months of the organisation’s timezone; each currency has a row for every month of the range from its first month with MRR or invoiced revenue on, zeros included, oldest first. ' +
  'Amounts are decimal strings with four places. Send `Accept: text/csv` for the same rows as CSV (a header line first). ' +
  '`as_of` (an ISO 8601 instant of recording, not a sandbox’s test clock) gives the rows a report asked at that instant gave. ' +
  '`from` after `to`, a span over 120 months, a malformed month or instant, or a currency that is not an ISO 4217 code is `422 invalid_parameter` naming the parameter; an unknown organisation is `404 organisation_not_found`.';

const ROUTES: readonly Readonly<{ kind: ReportKind; operationId: string; summary: string; description: string }>[] = [
  {
    kind: 'mrr',
    operationId: 'getMrrReport',
    summary: 'MRR movements by month',
    description:
      'MRR by month and currency: `opening_mrr`, the movements `new`, `expansion`, `contraction`, `churn` and `reactivation`, `closing_mrr`, `arr` (closing × 12) and `active_subscriptions`. ' +
      'A subscription’s MRR is what its renewal line would bill for a whole period at the units, prices (after CPI) and discount in force, normalised to a month by its interval and rounded once; one-off charges and usage are not MRR. ' +
      'Its movement over a month compares its MRR at the month’s first instant with its MRR at the next month’s; `opening + new + expansion + reactivation − contraction − churn = closing`, and a month’s closing is the next one’s opening. ' +
      COMMON,
  },
  {
    kind: 'revenue',
    operationId: 'getRevenueReport',
    summary: 'Invoiced revenue by month',
    description:
      'Invoiced revenue by month (of the invoice or credit note date) and currency: `new_subscription`, `expansion`, `renewal` and `usage`, each the invoice lines’ amounts after discount net of the credit note lines that reverse that type; `credits`, the month’s credit notes as a positive figure; and `total`, the sum of the four types. ' +
      'Voided and deleted invoices and credit notes count zero, so each month equals the sum of the documents `/v1/invoices` and `/v1/credit_notes` list for it. ' +
      COMMON,
  },
];

/** Finance's two reports, by month in the organisation's timezone, as JSON or (Accept: text/csv) CSV. */
export const reportRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  for (const { kind, operationId, summary, description } of ROUTES) {
    const report = REPORTS[kind];
    route(
      router,
      registry,
      {
        method: 'get',
        path: `/admin/v1/organisations/{org}/reports/${kind}`,
        operationId,
        summary,
        description,
        tag: 'Reports',
        auth: 'admin',
        status: 200,
        query: reportQuery,
        response: report.response,
        csv: report.csv,
      },
      async ({ params, query }) => {
        const organisation = await findOrganisation(deps, params.org!);
        return { body: { object: 'list', data: await report.rows(deps, reportRequest(organisation.id, query)) } };
      },
    );
  }
};
