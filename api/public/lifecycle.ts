import type { Request, Router } from 'express';
import { awaitSync } from '../../commands/await-sync';
import { changeUnits } from '../../commands/subscription/change-units';
import { endSubscription } from '../../commands/subscription/end-subscription';
import type { LifecycleContext } from '../../commands/subscription/load-subscription';
import { restoreSubscription } from '../../commands/subscription/restore-subscription';
import { CREDIT_NOTES, type CreditNoteDoc } from '../../projections/credit-notes';
import { INVOICES, type InvoiceDoc } from '../../projections/invoices';
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../../projections/subscriptions';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import type { RouteRegistry } from '../route';
import {
  changedSubscriptionObject,
  changeUnitsBody,
  endSubscriptionBody,
  restoreSubscriptionBody,
  toChangeUnitsRequest,
  toEndRequest,
} from '../schemas/lifecycle';
import { subscriptionObject } from '../schemas/subscription';
import { apiCaller } from './api-caller';
import { publicRoute } from './public-route';

const contextOf = (req: Request): LifecycleContext => ({
  organisationId: req.auth!.organisation.id,
  apiKeyId: req.auth!.apiKey.id,
  idempotencyKey: req.header('Idempotency-Key') ?? null,
});

/** Unit changes, end and restore: `POST /v1/subscriptions/{id}/units|end|restore`. */
export const lifecycleRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = {
    tag: 'Subscriptions',
    auth: 'api_key',
    status: 200,
    method: 'post',
    scope: 'subscriptions:write',
    idempotencyKey: 'optional',
    errors: [404, 409, 502],
  } as const;
  const subscriptionAfter = (req: Request, id: string, position: bigint) =>
    readAfterWrite(deps, position, () => findOwned<SubscriptionDoc>(deps, SUBSCRIPTIONS, req.auth!.organisation.id, id, 'subscription_not_found'));

  publicRoute(
    router,
    registry,
    deps,
    {
      ...base,
      path: '/v1/subscriptions/{id}/units',
      operationId: 'changeSubscriptionUnits',
      summary: 'Change the units: charge now, defer to the renewal invoice, or credit',
      body: changeUnitsBody,
      response: changedSubscriptionObject,
    },
    async ({ req, params, body }) => {
      const organisationId = req.auth!.organisation.id;
      const { change, position } = await changeUnits(deps, apiCaller(req), contextOf(req), params.id!, toChangeUnitsRequest(body));
      const synced = await awaitSync(deps.store, position, { invoiceIds: [change.invoiceId], creditNoteIds: [change.creditNoteId] }, deps.accountingPushWaitMs);
      const [subscription, invoice, creditNote] = await readAfterWrite(deps, synced, () =>
        Promise.all([
          findOwned<SubscriptionDoc>(deps, SUBSCRIPTIONS, organisationId, params.id!, 'subscription_not_found'),
          change.invoiceId ? findOwned<InvoiceDoc>(deps, INVOICES, organisationId, change.invoiceId, 'invoice_not_found') : null,
          change.creditNoteId ? findOwned<CreditNoteDoc>(deps, CREDIT_NOTES, organisationId, change.creditNoteId, 'credit_note_not_found') : null,
        ]),
      );
      return {
        body: {
          ...publicView(subscription),
          change: {
            units: change.units,
            previous_units: change.previousUnits,
            prorate: change.prorate,
            proration_behaviour: change.prorationBehaviour,
            effective_date: change.effectiveDate,
            document: change.document,
            invoice: invoice ? publicView(invoice) : null,
            credit_note: creditNote ? publicView(creditNote) : null,
          },
        },
      };
    },
  );

  publicRoute(
    router,
    registry,
    deps,
    {
      ...base,
      path: '/v1/subscriptions/{id}/end',
      operationId: 'endSubscription',
      summary: 'End a subscription now or at its renewal date',
      body: endSubscriptionBody,
      response: subscriptionObject,
    },
    async ({ req, params, body }) => {
      const { position, creditNoteIds, invoiceIds } = await endSubscription(deps, apiCaller(req), contextOf(req), params.id!, toEndRequest(body));
      const synced = await awaitSync(deps.store, position, { creditNoteIds, invoiceIds }, deps.accountingPushWaitMs);
      return { body: publicView(await subscriptionAfter(req, params.id!, synced)) };
    },
  );

  publicRoute(
    router,
    registry,
    deps,
    {
      ...base,
      path: '/v1/subscriptions/{id}/restore',
      operationId: 'restoreSubscription',
      summary: 'Restore an ended subscription, or one set to end at its renewal date',
      body: restoreSubscriptionBody,
      response: subscriptionObject,
    },
    async ({ req, params }) => {
      const { position, invoiceIds } = await restoreSubscription(deps, apiCaller(req), contextOf(req), params.id!);
      const synced = await awaitSync(deps.store, position, { invoiceIds }, deps.accountingPushWaitMs);
      return { body: publicView(await subscriptionAfter(req, params.id!, synced)) };
    },
  );
};
