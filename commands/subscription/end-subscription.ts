import type { OpenOrganisation } from '../../domain/organisation/state';
import { dateIn } from '../../domain/pricing/calendar';
import { parseMoney } from '../../domain/pricing/money';
import { carriedChargesInvoice } from '../../domain/invoice/carried-charges-invoice';
import { isRenewalLine } from '../../domain/invoice/renewal-invoice';
import { type EndSubscription, type InvoiceFacts, removalRefused } from '../../domain/subscription/end';
import type { CarriedCharges } from '../../domain/subscription/lifecycle-events';
import type { SubscriptionEvent } from '../../domain/subscription/events';
import type { ExistingSubscription, SubscriptionState } from '../../domain/subscription/lifecycle';
import { AccountingRefused, type AccountingSystem } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { finalUsagePeriodStart } from '../../domain/usage/billing';
import { accountingInvoice } from '../accounting/accounting-invoice';
import type { CommandDeps } from '../plumbing/deps';
import { invoiceCommand } from '../plumbing/invoice-command';
import type { Caller, OrganisationRef } from '../plumbing/metadata';
import { latestPosition } from '../plumbing/positions';
import { billUsagePeriod } from '../usage/bill-usage-period';
import { usageInvoiceIds } from '../plumbing/usage-states';
import { type LifecycleContext, loadForChange, operationIdFor } from './load-subscription';
import { creditNextPeriod, nextPeriodCreditNoteId } from './next-period-documents';
import { subscriptionCommand } from '../plumbing/subscription-command';

type Deps = CommandDeps & { accounting: AccountingSystem };

/** An invoice's facts for the end rules: its status and settlement as the accounting organisation in use holds it now. */
const invoiceFacts = async (deps: Deps, org: OpenOrganisation, invoiceId: string): Promise<InvoiceFacts> => {
  const { state } = await invoiceCommand.load(deps.store, invoiceId);
  if (state.status === 'removed') return { invoiceId, status: state.removal, sent: false, settled: false };
  // Never pushed, or pushed to an accounting organisation the organisation has since moved away from: the one in use holds nothing to remove.
  const ledger = state.status === 'raised' ? await accountingInvoice(deps, org, state) : null;
  if (!ledger) return { invoiceId, status: 'not_in_external', sent: false, settled: false };
  return {
    invoiceId,
    status: ledger.status,
    sent: ledger.sentToContact,
    settled: parseMoney(ledger.amountPaid) > 0n || parseMoney(ledger.amountCredited) > 0n,
  };
};

/**
 * Removes the invoices an end decided on, one at a time, before the end is recorded: each removal is
 * recorded on its invoice as it succeeds, so a refusal part-way leaves the subscription running and
 * the invoices already removed removed.
 */
const removeInvoices = (deps: Deps, caller: Caller, org: OpenOrganisation, ref: OrganisationRef, notInLedger: ReadonlySet<string>) => async (events: SubscriptionEvent[]) => {
  for (const event of events) {
    if (event.type !== 'SubscriptionEnded' && event.type !== 'SubscriptionEndScheduled') continue;
    for (const removal of event.data.removals) {
      const { state } = await invoiceCommand.load(deps.store, removal.invoiceId);
      if (state.status !== 'raised') continue;
      const status = removal.action === 'void' ? 'voided' : 'deleted';
      // An invoice the accounting system in use does not hold (never pushed, or pushed to one since disconnected) is removed here only.
      if (state.accountingInvoiceId && org.accounting && !notInLedger.has(removal.invoiceId)) {
        const tenant = deps.accounting.tenant(org.accounting.tenantId);
        try {
          await (removal.action === 'void' ? tenant.voidInvoice(state.accountingInvoiceId) : tenant.deleteInvoice(state.accountingInvoiceId));
        } catch (error) {
          if (error instanceof AccountingRefused) throw removalRefused(removal.invoiceId, error.message);
          throw error;
        }
      }
      await invoiceCommand(deps, removal.invoiceId, { type: 'RecordInvoiceRemoved', invoiceId: removal.invoiceId, status }, caller, ref);
    }
  }
};

/** The subscription's invoices the end rules look at: all of them (its usage invoices too) when removal is asked, else its renewal invoice. */
const invoicesToCheck = async (store: Deps['store'], state: ExistingSubscription, request: EndSubscription['request']): Promise<readonly string[]> => {
  const removing = request.when === 'now' && (request.deleteUnsentInvoices || request.voidApprovedInvoices);
  if (removing) return [...state.life.invoiceIds, ...(await usageInvoiceIds(store, state.subscription.subscriptionId))];
  return state.life.renewalInvoiceId ? [state.life.renewalInvoiceId] : [];
};

/** `POST /v1/subscriptions/{id}/end`. */
export const endSubscription = async (deps: Deps, caller: Caller, context: LifecycleContext, subscriptionId: string, request: EndSubscription['request']) => {
  const { org, ref, state, now } = await loadForChange(deps, context.organisationId, subscriptionId);
  const operationId = operationIdFor(context, subscriptionId, 'end', request);
  const done = state.status !== 'none' && operationId in state.life.operations;
  const invoices =
    state.status === 'none' || done || state.subscription.organisationId !== org.organisationId
      ? []
      : await Promise.all((await invoicesToCheck(deps.store, state, request)).map((id) => invoiceFacts(deps, org, id)));
  const command: EndSubscription = {
    type: 'EndSubscription',
    operationId,
    now,
    today: dateIn(now, org.settings.timezone),
    organisation: org,
    invoices,
    nextPeriodCreditNoteIds: Object.fromEntries(
      (state.status === 'none' ? [] : state.life.nextPeriodInvoiceIds).map((invoiceId) => [invoiceId, nextPeriodCreditNoteId(operationId, invoiceId)]),
    ),
    carriedChargesInvoiceId: derivedId('invoice', subscriptionId, 'carried', operationId),
    renewalInvoiceCarriesCharges: state.status !== 'none' && !done && (await carriesCharges(deps, state.life.renewalInvoiceId)),
    request,
  };
  const notInLedger = new Set(invoices.filter((facts) => facts.status === 'not_in_external').map((facts) => facts.invoiceId));
  const handled = await subscriptionCommand(deps, subscriptionId, command, caller, ref, removeInvoices(deps, caller, org, ref, notInLedger));
  if (handled.state.status === 'none') throw new Error('the subscription vanished');
  // Run for the end done now and for a retry that finds it done, so a crash before the credit notes is finished by the retry.
  const ended = handled.state.life.operations[operationId];
  const credits = ended?.type === 'SubscriptionEnded' || ended?.type === 'SubscriptionEndScheduled' ? (ended.data.nextPeriodCredits ?? []) : [];
  const credited = await creditNextPeriod(deps, { caller, ref, now }, handled.state, credits);
  const carried = ended?.type === 'SubscriptionEnded' || ended?.type === 'SubscriptionEndScheduled' ? ended.data.carriedCharges : null;
  const kept = carried ? await keepCarriedCharges(deps, { caller, ref, now, paymentTermsDays: org.settings.paymentTermsDays }, handled.state, carried) : 0n;
  return {
    position: latestPosition(handled.position, credited, kept, await billUsageNow(deps, caller, handled.state, operationId)),
    creditNoteIds: credits.map((credit) => credit.creditNoteId),
    invoiceIds: carried ? [carried.invoiceId] : [],
  };
};

/** Whether the renewal invoice bills this period's charges besides the next period (prorated increases carried to it). */
const carriesCharges = async (deps: Deps, renewalInvoiceId: string | null): Promise<boolean> => {
  if (!renewalInvoiceId) return false;
  const { state } = await invoiceCommand.load(deps.store, renewalInvoiceId);
  return state.status === 'raised' && state.invoice.lines.some((line) => !isRenewalLine(line));
};

/** Raises the invoice an end keeps the current period's charges billed on (again by a retry: raising it twice records it once). */
const keepCarriedCharges = async (
  deps: Deps,
  context: Readonly<{ caller: Caller; ref: OrganisationRef; now: string; paymentTermsDays: number }>,
  state: ExistingSubscription,
  carried: NonNullable<CarriedCharges>,
): Promise<bigint> => {
  const removed = carried.fromInvoiceId ? (await invoiceCommand.load(deps.store, carried.fromInvoiceId)).state : null;
  const raised = carriedChargesInvoice({
    state,
    carried,
    removed: removed && removed.status !== 'none' ? removed.invoice : null,
    lineIds: (i) => derivedId('invoiceLine', carried.invoiceId, String(i)),
    now: context.now,
    paymentTermsDays: context.paymentTermsDays,
  });
  return (await invoiceCommand(deps, carried.invoiceId, { type: 'RaiseInvoice', ...raised }, context.caller, context.ref)).position;
};

/**
 * `invoice_usage_now`: the final usage invoice at once, for the period holding the end date, instead
 * of after the usage grace period. Run for the end done now and for a retry that finds it done, so a
 * crash between ending and billing is finished by the retry (billing is once per period whatever runs it).
 */
const billUsageNow = async (deps: Deps, caller: Caller, state: SubscriptionState, operationId: string): Promise<bigint> => {
  if (state.status === 'none') return 0n;
  const ended = state.life.operations[operationId];
  if (ended?.type !== 'SubscriptionEnded' || !ended.data.invoiceUsageNow) return 0n;
  const periodStart = finalUsagePeriodStart(state);
  if (periodStart === null) return 0n;
  const { subscription } = state;
  return (await billUsagePeriod(deps, { organisationId: subscription.organisationId, subscriptionId: subscription.subscriptionId, periodStart }, caller)).position;
};
