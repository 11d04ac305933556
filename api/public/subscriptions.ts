import type { Router } from 'express';
import { z } from 'zod';
import { awaitSync } from '../../commands/accounting/await-sync';
import { createSubscription } from '../../commands/subscription/create-subscription';
import { INVOICE_STATUSES, INVOICES, type InvoiceDoc } from '../../projections/read-models/invoices';
import { SUBSCRIPTION_STATUSES, SUBSCRIPTIONS, type SubscriptionDoc } from '../../projections/read-models/subscriptions';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { csvEnum, listOf, listPage, listQuery, publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import type { RouteRegistry } from '../route';
import {
  createdSubscriptionObject,
  createSubscriptionBody,
  invoiceObject,
  subscriptionObject,
  toCreateSubscriptionInput,
} from '../schemas/subscription';
import { apiCaller } from './api-caller';
import { publicRoute } from './public-route';

export const subscriptionRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const subscriptionBase = { tag: 'Subscriptions', auth: 'api_key', status: 200 } as const;
  const invoiceBase = { tag: 'Invoices', auth: 'api_key', status: 200, scope: 'invoices:read' } as const;

  publicRoute(
    router,
    registry,
    deps,
    {
      ...subscriptionBase,
      method: 'post',
      path: '/v1/subscriptions',
      operationId: 'createSubscription',
      summary: 'Create a subscription and raise its first invoice in the accounting system',
      scope: 'subscriptions:write',
      idempotencyKey: 'required',
      body: createSubscriptionBody,
      status: 201,
      response: createdSubscriptionObject,
      errors: [403, 409],
    },
    async ({ req, res, body }) => {
      const organisation = req.auth!.organisation;
      const { subscriptionId, invoiceId, position, replayed } = await createSubscription(
        deps,
        apiCaller(req),
        {
          organisationId: organisation.id,
          apiKeyId: req.auth!.apiKey.id,
          idempotencyKey: req.header('Idempotency-Key')!,
          requestFingerprint: req.idempotencyFingerprint!,
        },
        toCreateSubscriptionInput(body),
      );
      const synced = await awaitSync(deps.store, position, { invoiceIds: [invoiceId] }, deps.accountingPushWaitMs);
      const [subscription, invoice] = await readAfterWrite(deps, synced, () =>
        Promise.all([
          findOwned<SubscriptionDoc>(deps, SUBSCRIPTIONS, organisation.id, subscriptionId, 'subscription_not_found'),
          invoiceId ? findOwned<InvoiceDoc>(deps, INVOICES, organisation.id, invoiceId, 'invoice_not_found') : null,
        ]),
      );
      // The same request again after its stored answer lapsed (24 hours) or was never stored (a crash).
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      return { body: { ...publicView(subscription), invoice: invoice ? publicView(invoice) : null } };
    },
  );

  publicRoute(
    router,
    registry,
    deps,
    {
      ...subscriptionBase,
      method: 'get',
      path: '/v1/subscriptions',
      operationId: 'listSubscriptions',
      summary: 'List subscriptions, newest first',
      scope: 'subscriptions:read',
      query: listQuery({
        customer: z.string().min(1).optional(),
        customer_code: z.string().min(1).optional(),
        status: csvEnum(SUBSCRIPTION_STATUSES).optional(),
      }),
      response: listOf(subscriptionObject),
    },
    async ({ req, query }) => ({ body: await listPage(deps.readStore, SUBSCRIPTIONS, req.auth!.organisation.id, query) }),
  );

  publicRoute(
    router,
    registry,
    deps,
    { ...subscriptionBase, method: 'get', path: '/v1/subscriptions/{id}', operationId: 'getSubscription', summary: 'Retrieve a subscription', scope: 'subscriptions:read', response: subscriptionObject },
    async ({ req, params }) => ({
      body: publicView(await findOwned<SubscriptionDoc>(deps, SUBSCRIPTIONS, req.auth!.organisation.id, params.id!, 'subscription_not_found')),
    }),
  );

  publicRoute(
    router,
    registry,
    deps,
    {
      ...invoiceBase,
      method: 'get',
      path: '/v1/invoices',
      operationId: 'listInvoices',
      summary: 'List invoices, newest first',
      query: listQuery({
        subscription: z.string().min(1).optional(),
        customer: z.string().min(1).optional(),
        status: csvEnum(INVOICE_STATUSES).optional(),
      }),
      response: listOf(invoiceObject),
    },
    async ({ req, query }) => ({ body: await listPage(deps.readStore, INVOICES, req.auth!.organisation.id, query) }),
  );

  publicRoute(
    router,
    registry,
    deps,
    { ...invoiceBase, method: 'get', path: '/v1/invoices/{id}', operationId: 'getInvoice', summary: 'Retrieve an invoice', response: invoiceObject },
    async ({ req, params }) => ({
      body: publicView(await findOwned<InvoiceDoc>(deps, INVOICES, req.auth!.organisation.id, params.id!, 'invoice_not_found')),
    }),
  );
};
