import { unitChangeCreditNote } from '../../domain/credit-note/unit-change-credit-note';
import { accountingCopy } from '../../domain/invoice/accounting-copy';
import { isRenewalLine } from '../../domain/invoice/renewal-invoice';
import { unitChangeInvoice } from '../../domain/invoice/unit-change-invoice';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { parseMoney } from '../../domain/pricing/money';
import type { ChangeUnits, RenewalInvoiceFacts } from '../../domain/subscription/change-units';
import type { SubscriptionUnitsChangedData } from '../../domain/subscription/lifecycle-events';
import type { AccountingSystem } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { accountingInvoice } from '../accounting/accounting-invoice';
import { planCommand } from '../plumbing/plan-command';
import { creditNoteCommand } from '../plumbing/credit-note-command';
import type { CommandDeps } from '../plumbing/deps';
import { amendRenewalInvoice } from './amend-renewal-invoice';
import { invoiceCommand } from '../plumbing/invoice-command';
import type { Caller } from '../plumbing/metadata';
import { latestPosition } from '../plumbing/positions';
import { type LifecycleContext, loadForChange, operationIdFor } from './load-subscription';
import { subscriptionCommand } from '../plumbing/subscription-command';

type Deps = CommandDeps & { accounting: AccountingSystem };

/**
 * What a change needs of the renewal invoice: where the accounting system holds it and its status
 * there (asked only of the accounting organisation the records say holds it), and what the lines an
 * amendment keeps amount to.
 */
const renewalInvoiceFacts = async (deps: Deps, org: OpenOrganisation, invoiceId: string | null): Promise<RenewalInvoiceFacts | null> => {
  if (!invoiceId) return null;
  const { state } = await invoiceCommand.load(deps.store, invoiceId);
  if (state.status !== 'raised') return { standing: state.status === 'none' ? 'not_raised' : 'removed', kept: 0n };
  const kept = state.invoice.lines.filter((line) => !isRenewalLine(line)).reduce((sum, line) => sum + parseMoney(line.amount), 0n);
  if (accountingCopy(state, org.accounting) === 'not_pushed') return { standing: 'not_pushed', kept };
  const held = await accountingInvoice(deps, org, state);
  return { standing: held?.status ?? 'elsewhere', kept };
};

/**
 * `POST /v1/subscriptions/{id}/units`: loads the subscription, its plan and its renewal invoice, lets
 * the decider check every rule and prorate, records the change, then raises the document it calls for
 * (an invoice for a charge now, a credit note for a credit); the accounting sync worker pushes it (and
 * allocates a credit note to the invoice that billed the period). Run again after a crash with the same Idempotency-Key, it finds the change and
 * finishes its document.
 */
export const changeUnits = async (deps: Deps, caller: Caller, context: LifecycleContext, subscriptionId: string, request: ChangeUnits['request']) => {
  const { org, ref, state, now } = await loadForChange(deps, context.organisationId, subscriptionId);
  const changeId = operationIdFor(context, subscriptionId, 'units', request);
  const [plan, renewal] =
    state.status === 'none'
      ? [null, null]
      : await Promise.all([planCommand.load(deps.store, state.subscription.planId), renewalInvoiceFacts(deps, org, state.life.renewalInvoiceId)]);
  const command: ChangeUnits = {
    type: 'ChangeUnits',
    changeId,
    now,
    organisation: org,
    plan: plan?.state.status === 'defined' ? plan.state.plan : null,
    invoiceId: derivedId('invoice', subscriptionId, changeId),
    creditNoteId: derivedId('creditNote', subscriptionId, changeId),
    renewalInvoice: renewal,
    request,
  };
  const handled = await subscriptionCommand(deps, subscriptionId, command, caller, ref);
  if (handled.state.status === 'none') throw new Error('the subscription vanished');
  const event = handled.state.life.operations[changeId];
  if (event?.type !== 'SubscriptionUnitsChanged') throw new Error('the unit change was not recorded');
  const change: SubscriptionUnitsChangedData = event.data;
  const subscription = handled.state.subscription;
  let position = handled.position;
  const renewalInvoiceId = handled.state.life.renewalInvoiceId;
  if (change.document === 'amend' && renewalInvoiceId) {
    const amended = await amendRenewalInvoice(deps, caller, org, handled.state, change, renewalInvoiceId);
    position = latestPosition(position, amended.position);
  }
  if (change.invoiceId) {
    const invoiceId = change.invoiceId;
    const raised = unitChangeInvoice({ subscription, change, lineIds: (i) => derivedId('invoiceLine', invoiceId, String(i)), paymentTermsDays: org.settings.paymentTermsDays });
    const recorded = await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...raised }, caller, ref);
    position = latestPosition(position, recorded.position);
  }
  if (change.creditNoteId) {
    const creditNoteId = change.creditNoteId;
    const raised = unitChangeCreditNote({
      subscription,
      change,
      lineIds: (i) => derivedId('invoiceLine', creditNoteId, String(i)),
      paymentTermsDays: org.settings.paymentTermsDays,
      reduces: change.creditedInvoiceId,
    });
    const recorded = await creditNoteCommand(deps, creditNoteId, { type: 'RaiseCreditNote', ...raised }, caller, ref);
    position = latestPosition(position, recorded.position);
  }
  return { change, position };
};
