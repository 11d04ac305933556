import type { Router } from 'express';
import { awaitSync } from '../../commands/accounting/await-sync';
import { createSubscription } from '../../commands/subscription/create-subscription';
import { INVOICES, type InvoiceDoc } from '../../projections/read-models/invoices';
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../../projections/read-models/subscriptions';
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
      summary: 'Create a subscription',
      description: `
        Sells a plan to a customer: records the subscription, raises its first invoice (the plan's price
        for the billing period holding the later of \`start_date\` and today, net of \`discount_percent\`,
        plus a line per one-off charge) and pushes it to the accounting system. Answers \`201\` with the
        subscription and that \`invoice\` (\`null\` in Setup Mode). Check \`invoice.accounting.sync_status\`:
        \`synced\` means the accounting system holds it; \`pending\` that the push is still being retried;
        \`failed\` that it was refused (the subscription still exists, \`sync_error\` says why).

        An \`Idempotency-Key\` is required. The subscription's id derives from the API key and that key,
        so a retry after a timeout or a crash finds the subscription instead of making a second one,
        and never raises a second invoice.

        \`customer_code\` names an existing customer; to create it on the way, send \`create_customer\`
        beside it (the same permission as \`POST /v1/customers\`). \`units\` is required on plans with
        units and refused on \`flat_fee\` and \`no_base_fee\` plans. A future \`start_date\` makes the
        subscription \`pending\` until then.

        **Errors**
        - \`403 accounting_contact_creation_disabled\`: \`create_customer\` was sent but the organisation has not allowed it.
        - \`403 plan_limit_reached\`: one more subscription (or customer) would exceed the organisation's plan.
        - \`404 plan_not_found\` (param \`plan_code\`), \`404 customer_not_found\` (param \`customer_code\`),
          \`404 charge_not_found\` (param \`charges.N.charge\`).
        - \`409 accounting_not_connected\`, \`409 accounting_accounts_not_mapped\`: the organisation cannot raise invoices yet.
        - \`409 accounting_contact_name_taken\` (param \`create_customer.name\`), \`409 accounting_contact_archived\`,
          \`409 customer_not_importable\`, \`409 customer_not_created\`: as for \`POST /v1/customers\`.
        - \`409 idempotency_conflict\`: the key was used with another request; \`409 request_in_progress\`: retry after \`Retry-After\`.
        - \`422 idempotency_key_required\`, \`422 idempotency_key_invalid\`.
        - \`422 invalid_parameter\`: a field is missing or invalid, or breaks a rule of the plan (units, minimums,
          price overrides, meters, a charge's status or currency); \`param\` names it.
      `,
      scope: 'subscriptions:write',
      idempotencyKey: 'required',
      body: createSubscriptionBody,
      examples: [
        { summary: 'Five seats of a per-seat plan', value: { customer_code: 'ACME', plan_code: 'team', units: 5 } },
        {
          summary: 'With a discount, a one-off charge and a purchase order number',
          value: { customer_code: 'ACME', plan_code: 'team', units: 5, discount_percent: '10', charges: [{ charge: 'chg_4mX9vQ2LrT7pKd1sWb8yZc3n' }], invoice_reference: 'PO-1234' },
        },
        {
          summary: 'Creating the customer on the way, starting on the 1st',
          value: { customer_code: 'CUST-42', create_customer: { name: 'Globex Ltd', email: 'ap@globex.example' }, plan_code: 'api', start_date: '2026-04-01' },
        },
      ],
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
