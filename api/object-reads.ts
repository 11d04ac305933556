import { z } from 'zod';
import type { Scope } from '../domain/api-key/scopes';
import { CATALOGUE_STATUSES } from '../domain/catalogue/types';
import { API_KEYS } from '../projections/read-models/api-keys';
import { CHARGES } from '../projections/read-models/charges';
import { CREDIT_NOTES } from '../projections/read-models/credit-notes';
import { CUSTOMER_STATUSES, CUSTOMERS } from '../projections/read-models/customers';
import { INVOICE_STATUSES, INVOICES } from '../projections/read-models/invoices';
import { METERS } from '../projections/read-models/meters';
import { ORGANISATIONS, type OrganisationDoc } from '../projections/read-models/organisations';
import { PLANS } from '../projections/read-models/plans';
import { SUBSCRIPTION_STATUSES, SUBSCRIPTIONS } from '../projections/read-models/subscriptions';
import type { ApiDeps } from './deps';
import type { Tag } from './tags';
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
  tag: Tag;
  query: z.ZodType<ListQuery>;
  object: z.ZodType;
  notFoundCode: string;
  /** Filters compared without regard to case. */
  caseInsensitive?: readonly string[];
  listSummary: string;
  /** What the list is and how it narrows (Markdown, as every route's description). */
  listDescription: string;
  getSummary: string;
  getDescription: string;
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
  listSummary: 'List customers',
  getSummary: 'Retrieve a customer',
  scope: 'customers:read',
  listDescription: `
    The organisation's imported customers, newest first, paged with \`limit\` and \`starting_after\`.
    Narrow it by \`code\`, by \`email\` (compared without regard to case) or by \`status\`
    (\`active\`, \`inactive\`, comma-separated). Contacts of the accounting system that were never
    imported are not listed.

    **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
  `,
  getDescription: 'A customer by its id (`cus_…`).\n\n**Errors:** `404 customer_not_found` when the organisation has no customer with that id.',
} satisfies ObjectRead;

/** Plans and charges: the catalogue the public API reads, one a subscription is sold on, the other added to its first invoice. */
const catalogueRead = <const Noun extends 'Plan' | 'Charge'>(noun: Noun, collection: string, object: z.ZodType, use: string) => {
  const resource = noun === 'Plan' ? 'plans' : 'charges';
  const lower = noun.toLowerCase();
  return {
    resource,
    collection,
    noun,
    tag: `${noun}s`,
    query: catalogueQuery,
    object,
    notFoundCode: `${lower}_not_found`,
    listSummary: `List ${resource}`,
    getSummary: `Retrieve a ${lower}`,
    scope: 'catalogue:read',
    listDescription: `
      The organisation's ${resource}, newest first, paged with \`limit\` and \`starting_after\`, of every
      status unless \`status\` narrows it (\`draft\`, \`active\`, \`inactive\`, \`legacy\`, comma-separated);
      \`code\` finds one by its code. ${use} Read them once and cache their ids and codes.

      **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
    `,
    getDescription: `A ${lower} by its id.\n\n**Errors:** \`404 ${lower}_not_found\` when the organisation has no ${lower} with that id.`,
  } as const satisfies ObjectRead;
};

export const PLAN_READ = catalogueRead('Plan', PLANS, planObject, 'A new subscription names one by `plan_code`; what it can use is `status=active,draft`.');
export const CHARGE_READ = catalogueRead('Charge', CHARGES, chargeObject, 'A new subscription adds one to its first invoice by id, in `charges`.');

export const METER_READ = {
  resource: 'meters',
  collection: METERS,
  noun: 'Meter',
  tag: 'Catalogue',
  query: listQuery({}),
  object: meterObject,
  notFoundCode: 'meter_not_found',
  listSummary: 'List meters',
  getSummary: 'Retrieve a meter',
  listDescription: `The organisation's meters, newest first, paged with \`limit\` and \`starting_after\`: what usage is reported against (\`meter_code\`) and plans bill in arrears.

**Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.`,
  getDescription: `A meter by its id (\`mtr_…\`).

**Errors:** \`404 meter_not_found\` when the organisation has no meter with that id.`,
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
  listSummary: 'List subscriptions',
  getSummary: 'Retrieve a subscription',
  scope: 'subscriptions:read',
  listDescription: `
    The organisation's subscriptions, newest first, paged with \`limit\` and \`starting_after\`. Narrow it by
    \`customer\` (id), \`customer_code\` or \`status\` (\`pending\`, \`active\`, \`complete\`, \`ended\`,
    comma-separated).

    **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
  `,
  getDescription: `
    A subscription by its id (\`sub_…\`): its status, units, current billing period and renewal date,
    and its values (\`renewal_value\`, \`usage_value\`, \`usage_value_annual\`, \`minimum_usage_value\`).
    A GET right after a write by the same client sees that write.

    **Errors:** \`404 subscription_not_found\` when the organisation has no subscription with that id.
  `,
} satisfies ObjectRead;

export const INVOICE_READ = {
  resource: 'invoices',
  collection: INVOICES,
  noun: 'Invoice',
  tag: 'Invoices',
  query: documentQuery,
  object: invoiceObject,
  notFoundCode: 'invoice_not_found',
  listSummary: 'List invoices',
  getSummary: 'Retrieve an invoice',
  scope: 'invoices:read',
  listDescription: `
    The organisation's invoices, newest first, paged with \`limit\` and \`starting_after\`. Narrow it by
    \`subscription\`, \`customer\` (ids) or \`status\` (comma-separated invoice statuses). Each invoice
    carries its lines (with their revenue type) and \`accounting\`: its number, total and
    \`sync_status\` in the accounting system.

    **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
  `,
  getDescription: `
    An invoice by its id (\`inv_…\`). Its \`status\` follows the accounting system's (\`draft\`,
    \`awaiting_approval\`, \`approved\`, \`paid\`, …) as the status poller sees it; \`total\` includes the
    tax the accounting system computed.

    **Errors:** \`404 invoice_not_found\` when the organisation has no invoice with that id.
  `,
} satisfies ObjectRead;

export const CREDIT_NOTE_READ = {
  resource: 'credit_notes',
  collection: CREDIT_NOTES,
  noun: 'CreditNote',
  tag: 'Credit notes',
  query: documentQuery,
  object: creditNoteObject,
  notFoundCode: 'credit_note_not_found',
  listSummary: 'List credit notes',
  getSummary: 'Retrieve a credit note',
  scope: 'credit_notes:read',
  listDescription: `
    The organisation's credit notes, newest first, paged with \`limit\` and \`starting_after\`, each with
    \`allocations\`: the invoices its credit was applied to. Narrow it by \`subscription\`, \`customer\`
    (ids) or \`status\` (comma-separated). A credit note is raised when a unit change lowers what is
    payable; its amounts are positive numbers (a \`subtotal\` of \`20.0000\` credits 20).

    **Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.
  `,
  getDescription: 'A credit note by its id (`cn_…`), with its lines, its copy in the accounting system and where its credit was applied.\n\n**Errors:** `404 credit_note_not_found` when the organisation has no credit note with that id.',
} satisfies ObjectRead;

export const API_KEY_READ = {
  resource: 'api_keys',
  collection: API_KEYS,
  noun: 'ApiKey',
  tag: 'API keys',
  query: listQuery({}),
  object: apiKeyObject,
  notFoundCode: 'api_key_not_found',
  listSummary: 'List API keys',
  getSummary: 'Retrieve an API key',
  listDescription: `The organisation's API keys, newest first, paged with \`limit\` and \`starting_after\`: name, scopes, mode, expiry, status and the secret's last four characters, never the secret itself (shown once, when the key is created).

**Errors:** \`422 invalid_parameter\` names a filter or paging parameter that is not valid.`,
  getDescription: `An API key by its id (\`key_…\`), never its secret.

**Errors:** \`404 api_key_not_found\` when the organisation has no API key with that id.`,
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
