import type { Request, Router } from 'express';
import { awaitSync } from '../../commands/accounting/await-sync';
import { changeUnits } from '../../commands/subscription/change-units';
import { endSubscription } from '../../commands/subscription/end-subscription';
import type { LifecycleContext } from '../../commands/subscription/load-subscription';
import { restoreSubscription } from '../../commands/subscription/restore-subscription';
import { CREDIT_NOTES, type CreditNoteDoc } from '../../projections/read-models/credit-notes';
import { INVOICES, type InvoiceDoc } from '../../projections/read-models/invoices';
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../../projections/read-models/subscriptions';
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
      summary: 'Change the units',
      description: `
        Sets the subscription's new total of units (seats, licences…); send the total, not a difference.
        What happens to the money depends on \`prorate\`:

        - \`prorate: true\` with \`proration_behaviour: charge_immediately\` (the default): the difference in
          price for the days from \`effective_date\` to the end of the period is invoiced at once, or
          credited on a credit note when the change lowers what is payable.
        - \`prorate: true\` with \`charge_on_renewal\`: the prorated amount is added to the renewal invoice.
        - \`prorate: false\`: the new total takes effect at renewal and no document is raised now; this is
          how a decrease without a credit is made. A change that would raise a credit note cannot use it.

        Once the renewal invoice exists, \`document\` chooses between amending it and billing the change
        on a separate invoice (by default the organisation's setting decides). The answer is the
        subscription with \`change\`: the units before and after, and the \`invoice\` or \`credit_note\` raised.

        **Errors** (each \`422\` names its field in \`param\`)
        - \`404 subscription_not_found\`.
        - \`422 units_invalid\`, \`units_below_minimum\`, \`units_unchanged\`, \`plan_has_no_units\`.
        - \`422 effective_date_required\`, \`effective_date_out_of_period\`, \`proration_required\`,
          \`proration_behaviour_not_applicable\`.
        - \`422 setup_mode_on\`: the organisation is in Setup Mode; \`422 subscription_not_changeable\`: it has ended or completed.
        - \`422 document_not_available\`: \`document\` sent before the renewal invoice exists, or naming a choice that is
          unavailable (such as \`amend\` for an invoice that can no longer change); the message says why.
        - \`502 accounting_error\`: the accounting system refused or failed; retry with the same \`Idempotency-Key\`.
      `,
      body: changeUnitsBody,
      examples: [
        { summary: 'Eight seats from the 25th, invoiced at once', value: { units: 8, prorate: true, proration_behaviour: 'charge_immediately', effective_date: '2026-03-25' } },
        { summary: 'Six seats from the next renewal, no document now', value: { units: 6 } },
      ],
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
      summary: 'End a subscription',
      description: `
        \`when: period_end\` sets the subscription to end at its renewal date (\`cancel_at_period_end\`): no
        renewal invoice is raised for the period after, and it can still be restored until then.
        \`when: now\` ends it today; \`delete_unsent_invoices\` also deletes its never-sent invoices in the
        accounting system and \`void_approved_invoices\` voids its approved unpaid ones. A plan that bills
        meters gets a final usage invoice for the usage up to the end: after the organisation's usage
        grace days, or at once with \`invoice_usage_now\`. The three options are refused with
        \`period_end\`.

        **Errors**
        - \`404 subscription_not_found\`.
        - \`409 invalid_state\`: the subscription cannot be ended now (it has ended or completed, is already set to
          end, its renewal invoice has a payment or credit on it, the accounting system refused to remove an
          invoice, or invoice removal was asked in Setup Mode); the message says why.
        - \`422 invalid_parameter\`: an option sent with \`when: period_end\`, or a field that is not valid.
        - \`502 accounting_error\`: the accounting system failed while removing an invoice; retry with the same \`Idempotency-Key\`.
      `,
      body: endSubscriptionBody,
      examples: [
        { summary: 'At the renewal date', value: { when: 'period_end' } },
        { summary: 'Now, billing the usage so far at once', value: { when: 'now', invoice_usage_now: true } },
        { summary: 'Now, removing its unsent invoices', value: { when: 'now', delete_unsent_invoices: true } },
      ],
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
      summary: 'Restore a subscription',
      description: `
        Undoes an end: a subscription set to end at its renewal date keeps running, and an \`ended\` one
        returns to \`active\` with its renewal date unchanged (a \`pending\` one becomes \`active\` at its
        \`start_date\`). \`end_date\` and \`cancel_at_period_end\` are cleared. A renewal invoice that came
        due meanwhile is raised. The body is an empty object.

        **Errors**
        - \`404 subscription_not_found\`.
        - \`409 invalid_state\`: it cannot be restored (it is neither ended nor set to end, has completed, its
          renewal date has passed, its customer is inactive or its plan neither active nor legacy); the
          message says why.
        - \`502 accounting_error\`: the accounting system refused or failed; retry with the same \`Idempotency-Key\`.
      `,
      body: restoreSubscriptionBody,
      examples: [{ summary: 'No fields', value: {} }],
      response: subscriptionObject,
    },
    async ({ req, params }) => {
      const { position, invoiceIds } = await restoreSubscription(deps, apiCaller(req), contextOf(req), params.id!);
      const synced = await awaitSync(deps.store, position, { invoiceIds }, deps.accountingPushWaitMs);
      return { body: publicView(await subscriptionAfter(req, params.id!, synced)) };
    },
  );
};
