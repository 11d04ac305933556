import type { Router } from 'express';
import type { Lookups } from '../../commands/plumbing/lookups';
import { type BilledUsageCursor, billedUsagePage } from '../../projections/queries/billed-usage';
import { objectHistoryPage } from '../../projections/queries/history';
import { INVOICES, type InvoiceDoc } from '../../projections/read-models/invoices';
import { subscriptionAsOf } from '../../projections/queries/as-of';
import type { OrganisationDoc } from '../../projections/read-models/organisations';
import type { ApiDeps } from '../deps';
import { invalidParameter, notFound } from '../errors';
import { findOwned } from '../find-owned';
import { type ListQuery, listOf, listQuery, publicView } from '../paging';
import { type RouteRegistry, route } from '../route';
import { asOfQuery, eventObject, historyQuery, subscriptionAsOfObject, toEventObject, toUsageEventObject, usageEventObject } from '../schemas/audit';
import { findOrganisation } from './organisations';

/** A page's start after this usage event id: the revisions of the subscription's usage stream the id index names for it. */
const usageCursor = async (lookups: Lookups, organisationId: string, subscriptionId: string, eventId: string): Promise<BilledUsageCursor> => {
  const { holders } = await lookups.usageEventHolders(organisationId, subscriptionId, [eventId]);
  const revisions = (holders.get(eventId) ?? []).filter((holder) => holder.subscriptionId === subscriptionId).map((holder) => holder.revision);
  return { eventId, revisions };
};

/** The usage events an invoice line billed, a page at a time (none for a line that is not a usage line). */
export const lineUsageEvents = async (deps: ApiDeps, organisation: Pick<OrganisationDoc, 'id'>, invoiceId: string, lineId: string, query: ListQuery) => {
  const invoice = await findOwned<InvoiceDoc>(deps, INVOICES, organisation.id, invoiceId, 'invoice_not_found');
  const line = invoice.lines.find((l) => l.id === lineId);
  if (!line) throw notFound('invoice_line_not_found', `Invoice ${invoice.id} has no line ${lineId}.`, 'line');
  const after = query.starting_after;
  const subscriptionId = invoice.subscription;
  const cursor = after === undefined || subscriptionId === null ? undefined : await usageCursor(deps.lookups, organisation.id, subscriptionId, after);
  const page =
    line.type === 'usage' && line.meter !== null && subscriptionId !== null
      ? await billedUsagePage(deps.store, deps.readStore, { subscriptionId, invoiceId: invoice.id, meterId: line.meter }, query.limit, cursor)
      : after === undefined
        ? { events: [], hasMore: false }
        : null;
  if (!page) throw invalidParameter('starting_after', `No usage event ${after!} billed on this line to start after.`);
  return { object: 'list' as const, data: page.events.map(toUsageEventObject), has_more: page.hasMore };
};

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
      summary: 'List an object’s events',
      description: `
        Every event of one object (\`sub_…\`, \`inv_…\`, \`cn_…\`, \`cus_…\`, …), oldest first, as the log
        holds it: type, version, data, and metadata (when it was recorded, the business time it happened
        at, the actor, the request, causation and correlation ids). Paged with \`limit\` and
        \`starting_after\`, a revision.

        **Errors:** \`404 stream_not_found\`: no object with that id; \`422 invalid_parameter\`: no event with
        the \`starting_after\` revision.
      `,
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
      summary: 'A subscription as of an instant',
      description: `
        The subscription as it stood at \`as_of\` (an ISO 8601 timestamp; without it, now), folded from its
        events recorded up to then, with its invoices and credit notes as of that instant.

        **Errors:** \`404 subscription_not_found\`: no such subscription, or none yet at that instant.
      `,
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
      summary: 'List the usage events a line billed',
      description: `
        For a usage line of an invoice: the usage events it billed, in the order they were stored, paged
        with \`limit\` and \`starting_after\` (an \`event_id\`). A line that is not a usage line billed none.

        **Errors:** \`404 invoice_not_found\`, \`404 invoice_line_not_found\`; \`422 invalid_parameter\`: no usage
        event with the \`starting_after\` id was billed on this line.
      `,
      query: listQuery({}),
      response: listOf(usageEventObject),
    },
    async ({ params, query }) => ({ body: await lineUsageEvents(deps, await findOrganisation(deps, params.org!), params.id!, params.line!, query) }),
  );
};
