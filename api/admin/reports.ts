import type { Router } from 'express';
import type { ApiDeps } from '../deps';
import { type RouteRegistry, route } from '../route';
import { type ReportKind, REPORTS, reportQuery, reportRequest } from '../schemas/reports';
import { findOrganisation } from './organisations';

const ROUTES: readonly Readonly<{ kind: ReportKind; operationId: string; summary: string }>[] = [
  {
    kind: 'mrr',
    operationId: 'getMrrReport',
    summary: 'MRR by month and currency: opening, new, expansion, contraction, churn, reactivation, closing, ARR and active subscriptions',
  },
  {
    kind: 'revenue',
    operationId: 'getRevenueReport',
    summary: 'Invoiced revenue by month and currency: each revenue type net of the credit notes reversing it, the credits, and the total',
  },
];

/** Finance's two reports, by month in the organisation's timezone, as JSON or (Accept: text/csv) CSV. */
export const reportRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  for (const { kind, operationId, summary } of ROUTES) {
    const report = REPORTS[kind];
    route(
      router,
      registry,
      {
        method: 'get',
        path: `/admin/v1/organisations/{org}/reports/${kind}`,
        operationId,
        summary,
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
