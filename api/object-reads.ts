import { z } from 'zod';
import type { Scope } from '../domain/api-key/scopes';
import { CATALOGUE_STATUSES } from '../domain/catalogue/types';
import { API_KEYS } from '../projections/api-keys';
import { CHARGES } from '../projections/charges';
import { CREDIT_NOTES } from '../projections/credit-notes';
import { CUSTOMER_STATUSES, CUSTOMERS } from '../projections/customers';
import { INVOICE_STATUSES, INVOICES } from '../projections/invoices';
import { METERS } from '../projections/meters';
import { ORGANISATIONS, type OrganisationDoc } from '../projections/organisations';
import { PLANS } from '../projections/plans';
import { SUBSCRIPTION_STATUSES, SUBSCRIPTIONS } from '../projections/subscriptions';
import type { ApiDeps } from './deps';
import { findOwned } from './find-owned';
import { csvEnum, type ListQuery, listPage, listQuery, publicView } from './paging';
import { apiKeyObject } from './schemas/api-key';
import { chargeObject, meterObject, planObject } from './schemas/catalogue';
import { creditNoteObject } from './schemas/credit-note';
import { customerObject } from './schemas/customer';
import { invoiceObject, subscriptionObject } from './schemas/subscription';

/**
 * One kind of object an organisation owns, as it is listed and retrieved: its read model, its
 * list's filters and its view. The `/v1` routes (with `scope`), the admin routes under
 * `/admin/v1/organisations/{org}/` and the console read through the same one.
 */
export type ObjectRead = Readonly<{
  /** The path segment: `/v1/customers`, `/admin/v1/organisations/{org}/customers`. */
  resource: string;
  collection: string;
  /** Singular, capitalised: `Customer` (operation ids are `list<noun>s` and `get<noun>`). */
  noun: string;
  tag: string;
  query: z.ZodType<ListQuery>;
  object: z.ZodType;
  notFoundCode: string;
  /** Filters compared without regard to case. */
  caseInsensitive?: readonly string[];
  listSummary: string;
  getSummary: string;
  /** The `/v1` scope that reads it; none where `/v1` does not serve it. */
  scope?: Scope;
}>;

/** Invoices and credit notes: by subscription, customer, status (the two share their statuses). */
const documentQuery = listQuery({
  subscription: z.string().min(1).optional(),
  customer: z.string().min(1).optional(),
  status: csvEnum(INVOICE_STATUSES).optional(),
});

const catalogueQuery = listQuery({ code: z.string().min(1).optional(), status: csvEnum(CATALOGUE_STATUSES).optional() });

export const CUSTOMER_READ = {
  resource: 'customers',
  collection: CUSTOMERS,
  noun: 'Customer',
  tag: 'Customers',
  query: listQuery({
    code: z.string().min(1).optional(),
    email: z.string().min(1).optional().describe('Case-insensitive'),
    status: csvEnum(CUSTOMER_STATUSES).optional(),
  }),
  object: customerObject,
  notFoundCode: 'customer_not_found',
  caseInsensitive: ['email'],
  listSummary: 'List imported customers, newest first',
  getSummary: 'Retrieve a customer',
  scope: 'customers:read',
} satisfies ObjectRead;

export const PLAN_READ = {
  resource: 'plans',
  collection: PLANS,
  noun: 'Plan',
  tag: 'Plans',
  query: catalogueQuery,
  object: planObject,
  notFoundCode: 'plan_not_found',
  listSummary: 'List plans, newest first',
  getSummary: 'Retrieve a plan',
  scope: 'catalogue:read',
} satisfies ObjectRead;

export const CHARGE_READ = {
  resource: 'charges',
  collection: CHARGES,
  noun: 'Charge',
  tag: 'Charges',
  query: catalogueQuery,
  object: chargeObject,
  notFoundCode: 'charge_not_found',
  listSummary: 'List charges, newest first',
  getSummary: 'Retrieve a charge',
  scope: 'catalogue:read',
} satisfies ObjectRead;

export const METER_READ = {
  resource: 'meters',
  collection: METERS,
  noun: 'Meter',
  tag: 'Catalogue',
  query: listQuery({}),
  object: meterObject,
  notFoundCode: 'meter_not_found',
  listSummary: 'List meters, newest first',
  getSummary: 'Retrieve a meter',
} satisfies ObjectRead;

export const SUBSCRIPTION_READ = {
  resource: 'subscriptions',
  collection: SUBSCRIPTIONS,
  noun: 'Subscription',
  tag: 'Subscriptions',
  query: listQuery({
    customer: z.string().min(1).optional(),
    customer_code: z.string().min(1).optional(),
    status: csvEnum(SUBSCRIPTION_STATUSES).optional(),
  }),
  object: subscriptionObject,
  notFoundCode: 'subscription_not_found',
  listSummary: 'List subscriptions, newest first',
  getSummary: 'Retrieve a subscription',
  scope: 'subscriptions:read',
} satisfies ObjectRead;

export const INVOICE_READ = {
  resource: 'invoices',
  collection: INVOICES,
  noun: 'Invoice',
  tag: 'Invoices',
  query: documentQuery,
  object: invoiceObject,
  notFoundCode: 'invoice_not_found',
  listSummary: 'List invoices, newest first',
  getSummary: 'Retrieve an invoice',
  scope: 'invoices:read',
} satisfies ObjectRead;

export const CREDIT_NOTE_READ = {
  resource: 'credit_notes',
  collection: CREDIT_NOTES,
  noun: 'CreditNote',
  tag: 'Credit notes',
  query: documentQuery,
  object: creditNoteObject,
  notFoundCode: 'credit_note_not_found',
  listSummary: 'List credit notes, newest first, each with where its credit was applied',
  getSummary: 'Retrieve a credit note',
  scope: 'credit_notes:read',
} satisfies ObjectRead;

export const API_KEY_READ = {
  resource: 'api_keys',
  collection: API_KEYS,
  noun: 'ApiKey',
  tag: 'API keys',
  query: listQuery({}),
  object: apiKeyObject,
  notFoundCode: 'api_key_not_found',
  listSummary: 'List API keys, newest first (never their secrets)',
  getSummary: 'Retrieve an API key (never its secret)',
} satisfies ObjectRead;

/** One page of the organisation's objects, newest first, filtered as the query says. */
export const listObjects = (deps: Pick<ApiDeps, 'readStore'>, read: ObjectRead, organisationId: string, query: ListQuery) =>
  listPage(deps.readStore, read.collection, organisationId, query, read.caseInsensitive);

/** One object of the organisation's, as the API shows it, or the resource's 404. */
export const getObject = async <T extends Record<string, unknown>>(deps: ApiDeps, read: ObjectRead, organisationId: string, id: string): Promise<T> =>
  publicView(await findOwned(deps, read.collection, organisationId, id, read.notFoundCode)) as unknown as T;

export const organisationsQuery = listQuery({
  livemode: z
    .enum(['true', 'false'])
    .transform((text) => text === 'true')
    .optional()
    .describe('true: live organisations only; false: sandboxes only'),
});

/** One page of every organisation, newest first (an operator's list: organisations own no one). */
export const listOrganisations = async (deps: Pick<ApiDeps, 'readStore'>, query: z.infer<typeof organisationsQuery>) => {
  const page = await deps.readStore.find<OrganisationDoc>(ORGANISATIONS, {
    where: query.livemode === undefined ? [] : [{ field: 'livemode', eq: query.livemode }],
    orderBy: 'created',
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
  });
  return { object: 'list' as const, data: page.data, has_more: page.hasMore };
};
