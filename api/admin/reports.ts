import type { Router } from 'express';
import { mrrReport, type ReportRequest, revenueReport } from '../../projections/revenue-report-queries';
import type { ApiDeps } from '../deps';
import { type RouteRegistry, route } from '../route';
import { mrrRowObject, reportCsv, reportOf, type ReportQuery, reportQuery, revenueRowObject, toMrrRowObject, toRevenueRowObject } from '../schemas/reports';
import { findOrganisation } from './organisations';

const requestOf = (organisationId: string, query: ReportQuery): ReportRequest => ({
  organisationId,
  range: { from: query.from, to: query.to },
  currency: query.currency ?? null,
  asOf: query.as_of === undefined ? null : new Date(query.as_of),
});

/** Finance's two reports: MRR movements and invoiced revenue by month, as JSON or CSV. */
export const reportRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Reports', auth: 'admin', status: 200, method: 'get', query: reportQuery } as const;
  const stores = { store: deps.store, readStore: deps.readStore };

  route(
    router,
    registry,
    {
      ...base,
      path: '/admin/v1/organisations/{org}/reports/mrr',
      operationId: 'getMrrReport',
      summary: 'MRR by month and currency: opening, new, expansion, contraction, churn, reactivation, closing, ARR and active subscriptions',
      response: reportOf(mrrRowObject),
      csv: reportCsv(Object.keys(mrrRowObject.shape)),
    },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const rows = await mrrReport(stores, requestOf(organisation.id, query));
      return { body: { object: 'list', data: rows.map(toMrrRowObject) } };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      path: '/admin/v1/organisations/{org}/reports/revenue',
      operationId: 'getRevenueReport',
      summary: 'Invoiced revenue by month and currency: each revenue type net of the credit notes reversing it, the credits, and the total',
      response: reportOf(revenueRowObject),
      csv: reportCsv(Object.keys(revenueRowObject.shape)),
    },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const rows = await revenueReport(stores, requestOf(organisation.id, query));
      return { body: { object: 'list', data: rows.map(toRevenueRowObject) } };
    },
  );
};
