import { reRaisedInvoice } from '../../domain/invoice/re-raise';
import { renewalInvoice } from '../../domain/invoice/renewal-invoice';
import { dateIn } from '../../domain/pricing/calendar';
import type { RestoreSubscription } from '../../domain/subscription/restore';
import { derivedId } from '../../infra/ids';
import { planCommand } from '../plumbing/plan-command';
import { customerCommand } from '../plumbing/customer-command';
import type { CommandDeps } from '../plumbing/deps';
import { invoiceCommand } from '../plumbing/invoice-command';
import type { Caller } from '../plumbing/metadata';
import { latestPosition } from '../plumbing/positions';
import { type LifecycleContext, loadForChange, operationIdFor } from './load-subscription';
import { rebillNextPeriod } from './next-period-documents';
import { subscriptionCommand } from '../plumbing/subscription-command';

/**
 * `POST /v1/subscriptions/{id}/restore`: loads the customer and plan the rules need, records the
 * restore, raises again a renewal invoice that ending removed (afresh, or its lines again with the
 * next period's lines ending credited, for an end recorded before ends kept the current period's
 * charges); the accounting sync worker pushes them; answers the invoices it raised.
 */
export const restoreSubscription = async (deps: CommandDeps, caller: Caller, context: LifecycleContext, subscriptionId: string) => {
  const { org, ref, state, now } = await loadForChange(deps, context.organisationId, subscriptionId);
  const operationId = operationIdFor(context, subscriptionId, 'restore', {});
  const [customer, plan] =
    state.status === 'none'
      ? [null, null]
      : await Promise.all([customerCommand.load(deps.store, state.subscription.customerId), planCommand.load(deps.store, state.subscription.planId)]);
  const removed = state.status === 'none' ? null : state.life.removedRenewalInvoiceId;
  // A retry after a crash finds the restore made and finishes raising the invoice it names.
  const command: RestoreSubscription = {
    type: 'RestoreSubscription',
    operationId,
    organisationId: org.organisationId,
    resetGeneration: org.resetGeneration,
    today: dateIn(now, org.settings.timezone),
    customerStatus: customer && customer.state.status !== 'none' ? customer.state.status : null,
    planStatus: plan?.state.status === 'defined' ? plan.state.plan.status : null,
    reRaisedInvoiceId: derivedId('invoice', removed ?? subscriptionId, 'restored', operationId),
    nextPeriodInvoiceId: derivedId('invoice', subscriptionId, 'next-period', operationId),
  };
  const handled = await subscriptionCommand(deps, subscriptionId, command, caller, ref);
  let position = handled.position;
  const invoiceIds: string[] = [];
  const event = handled.state.status === 'none' ? undefined : handled.state.life.operations[operationId];
  if (handled.state.status === 'none' || event?.type !== 'SubscriptionRestored') return { position, invoiceIds };
  const { renewal } = event.data;
  if (event.data.renewalInvoiceId && renewal) {
    const invoiceId = event.data.renewalInvoiceId;
    const raised = renewalInvoice({
      state: handled.state,
      raised: { subscriptionId, invoiceId, ...renewal },
      lineIds: (i) => derivedId('invoiceLine', invoiceId, String(i)),
      now,
      paymentTermsDays: org.settings.paymentTermsDays,
    });
    position = latestPosition(position, (await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...raised }, caller, ref)).position);
    invoiceIds.push(invoiceId);
  } else if (event.data.renewalInvoiceId && event.data.replacesInvoiceId) {
    const invoiceId = event.data.renewalInvoiceId;
    const original = await invoiceCommand.load(deps.store, event.data.replacesInvoiceId);
    if (original.state.status !== 'none') {
      const raised = reRaisedInvoice(original.state.invoice, {
        invoiceId,
        lineIds: original.state.invoice.lines.map((_, i) => derivedId('invoiceLine', invoiceId, String(i))),
        now,
        paymentTermsDays: org.settings.paymentTermsDays,
      });
      const recorded = await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...raised }, caller, ref);
      position = latestPosition(position, recorded.position);
      invoiceIds.push(invoiceId);
    }
  }
  const rebilled = event.data.nextPeriodInvoice;
  if (rebilled) {
    position = latestPosition(position, await rebillNextPeriod(deps, { caller, ref, now, paymentTermsDays: org.settings.paymentTermsDays }, handled.state, rebilled));
    invoiceIds.push(rebilled.invoiceId);
  }
  return { position, invoiceIds };
};
