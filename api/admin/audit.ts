import type { Router } from 'express';
import { billedUsageEvents } from '../../projections/billed-usage';
import { objectHistoryPage } from '../../projections/history';
import { INVOICES, type InvoiceDoc } from '../../projections/invoices';
import { subscriptionAsOf } from '../../projections/as-of';
import type { ApiDeps } from '../deps';
import { invalidParameter, notFound } from '../errors';
import { findOwned } from '../find-owned';
import { listOf, listQuery, publicView } from '../paging';
import { type RouteRegistry, route } from '../route';
import { asOfQuery, eventObject, historyQuery, subscriptionAsOfObject, toEventObject, toUsageEventObject, usageEventObject } from '../schemas/audit';
import { findOrganisation } from './organisations';

/** Auditors' reads: an object's history, a subscription as of an instant, the usage events a line billed. */
export const auditRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Audit', auth: 'admin', status: 200 } as const;

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: '/admin/v1/organisations/{org}/streams/{id}/events',
      operationId: 'listObjectEvents',
      summary: 'The event history of one object, oldest first',
      query: historyQuery,
      response: listOf(eventObject),
    },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const page = await objectHistoryPage(deps.store, organisation.id, params.id!, query.starting_after, query.limit);
      if (!page) throw notFound('stream_not_found', `No object with id ${params.id!}.`, 'id');
      if (page === 'unknown_revision') throw invalidParameter('starting_after', `No event with revision ${query.starting_after!} to start after.`);
      return { body: { object: 'list', data: page.events.map(toEventObject), has_more: page.hasMore } };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: '/admin/v1/organisations/{org}/subscriptions/{id}',
      operationId: 'getSubscriptionAsOf',
      summary: 'A subscription, with its invoices and credit notes, as it stood at an instant (default now), folded from its events',
      query: asOfQuery,
      response: subscriptionAsOfObject,
    },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const asOf = query.as_of === undefined ? null : new Date(query.as_of);
      const found = await subscriptionAsOf(deps.store, deps.readStore, organisation.id, params.id!, asOf);
      if (!found) throw notFound('subscription_not_found', `No subscription ${params.id!} as of ${query.as_of ?? 'now'}.`, 'id');
      return { body: { ...publicView(found), invoices: found.invoices.map(publicView), credit_notes: found.credit_notes.map(publicView) } };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: '/admin/v1/organisations/{org}/invoices/{id}/lines/{line}/usage_events',
      operationId: 'listLineUsageEvents',
      summary: 'The usage events an invoice line billed, in the order stored (none for a line that is not a usage line); starting_after is an event_id',
      query: listQuery({}),
      response: listOf(usageEventObject),
    },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const invoice = await findOwned<InvoiceDoc>(deps, INVOICES, organisation.id, params.id!, 'invoice_not_found');
      const line = invoice.lines.find((l) => l.id === params.line);
      if (!line) throw notFound('invoice_line_not_found', `Invoice ${invoice.id} has no line ${params.line!}.`, 'line');
      const billed = line.type === 'usage' && line.meter !== null && invoice.subscription !== null ? await billedUsageEvents(deps.store, deps.readStore, invoice.subscription, invoice.id, line.meter) : [];
      const after = query.starting_after === undefined ? -1 : billed.findIndex((event) => event.eventId === query.starting_after);
      if (after < 0 && query.starting_after !== undefined) throw invalidParameter('starting_after', `No usage event ${query.starting_after} billed on this line to start after.`);
      const page = billed.slice(after + 1, after + 1 + query.limit);
      return { body: { object: 'list', data: page.map(toUsageEventObject), has_more: after + 1 + query.limit < billed.length } };
    },
  );
};
