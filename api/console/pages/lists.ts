import type { Router } from 'express';
import type { ApiDeps } from '../../deps';
import { toApiError } from '../../middleware/error-handler';
import { CREDIT_NOTE_READ, CUSTOMER_READ, INVOICE_READ, listObjects, type ObjectRead, SUBSCRIPTION_READ } from '../../object-reads';
import { parseOrThrow } from '../../validation';
import { page } from '../page';
import { organisationOf } from './organisation';
import { pageTrail } from './paging';

/** A list's filter as a labelled input: the `/v1` query parameter it sets. */
export type Filter = Readonly<{ param: string; label: string; hint?: string }>;

type ListPage = Readonly<{ read: ObjectRead; path: string; title: string; view: string; filters: readonly Filter[] }>;

const statusFilter = (statuses: string): Filter => ({ param: 'status', label: 'Status', hint: `Comma-separated: ${statuses}` });

/** The lists of the console: the `/v1` lists, their filters as labelled inputs, paged forward and back. */
export const LISTS: readonly ListPage[] = [
  {
    read: CUSTOMER_READ,
    path: 'customers',
    title: 'Customers',
    view: 'customers',
    filters: [{ param: 'code', label: 'Customer code' }, { param: 'email', label: 'Email' }, statusFilter('active, inactive')],
  },
  {
    read: SUBSCRIPTION_READ,
    path: 'subscriptions',
    title: 'Subscriptions',
    view: 'subscriptions',
    filters: [statusFilter('pending, active, complete, ended'), { param: 'customer_code', label: 'Customer code' }, { param: 'customer', label: 'Customer id' }],
  },
  {
    read: INVOICE_READ,
    path: 'invoices',
    title: 'Invoices',
    view: 'invoices',
    filters: [statusFilter('draft, awaiting_approval, approved, paid, voided, deleted, not_in_external'), { param: 'subscription', label: 'Subscription id' }, { param: 'customer', label: 'Customer id' }],
  },
  {
    read: CREDIT_NOTE_READ,
    path: 'credit-notes',
    title: 'Credit notes',
    view: 'credit-notes',
    filters: [statusFilter('draft, awaiting_approval, approved, paid, voided, deleted, not_in_external'), { param: 'subscription', label: 'Subscription id' }, { param: 'customer', label: 'Customer id' }],
  },
];

export const listPages = (router: Router, deps: ApiDeps): void => {
  for (const list of LISTS) {
    page(router, `/organisations/:org/${list.path}`, async (req) => {
      const organisation = await organisationOf(deps, req);
      const { query, trail } = pageTrail(req);
      let rows: { data: Record<string, unknown>[]; has_more: boolean } = { data: [], has_more: false };
      let refused: string | null = null;
      try {
        rows = await listObjects(deps, list.read, organisation.id, parseOrThrow(list.read.query, query));
      } catch (error) {
        // A filter the API refuses is said beside the filters, as a refused form is.
        const refusal = toApiError(error);
        if (refusal?.status !== 422) throw error;
        refused = refusal.message;
      }
      return {
        view: 'list',
        title: list.title,
        organisation,
        data: { list, query, rows, trail, refused, rowsView: list.view },
      };
    });
  }
};
