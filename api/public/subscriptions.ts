import type { Router } from 'express';
import { awaitSync } from '../../commands/await-sync';
import { createSubscription } from '../../commands/subscription/create-subscription';
import { INVOICES, type InvoiceDoc } from '../../projections/invoices';
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../../projections/subscriptions';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { INVOICE_READ, SUBSCRIPTION_READ } from '../object-reads';
import { publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import type { RouteRegistry } from '../route';
import { createdSubscriptionObject, createSubscriptionBody, toCreateSubscriptionInput } from '../schemas/subscription';
import { apiCaller } from './api-caller';
import { publicObjectRoutes } from './object-routes';
import { publicRoute } from './public-route';

export const subscriptionRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const subscriptionBase = { tag: 'Subscriptions', auth: 'api_key', status: 200 } as const;

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

  publicObjectRoutes(router, registry, deps, SUBSCRIPTION_READ);
  publicObjectRoutes(router, registry, deps, INVOICE_READ);
};
