import { usageInvoice } from '../../domain/invoice/usage-invoice';
import { inSetupMode } from '../../domain/organisation/rules';
import { dateIn } from '../../domain/pricing/calendar';
import { DomainError } from '../../domain/shared/domain-error';
import { metersDuring } from '../../domain/subscription/lifecycle';
import { decideUsageBill, dueUsagePeriods } from '../../domain/usage/billing';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../plumbing/deps';
import { invoiceCommand } from '../plumbing/invoice-command';
import { type Caller, eventMetadata, refOf } from '../plumbing/metadata';
import { loadOpenOrganisation } from '../plumbing/load-open-organisation';
import { latestPosition } from '../plumbing/positions';
import { subscriptionCommand } from '../plumbing/subscription-command';
import { billedUsagePeriods, decideOnUsageStream } from '../plumbing/usage-states';

export type BillUsagePeriodRequest = Readonly<{ organisationId: string; subscriptionId: string; periodStart: string }>;

export type BilledUsagePeriod = Readonly<{
  periodStart: string;
  /** End (exclusive) of the usage billed. */
  periodEnd: string;
  /** The usage invoice; null when the period billed nothing (or in Setup Mode). */
  invoiceId: string | null;
  /** Whether this call billed it (false when it was billed before). */
  billedNow: boolean;
  /** Latest log position written (0n when nothing was), for read-your-writes. */
  position: bigint;
}>;

/** The usage invoice of a subscription's period and its lines: the same ids for every retry. */
export const usageInvoiceId = (subscriptionId: string, periodStart: string): string => derivedId('invoice', 'usage', subscriptionId, periodStart);
const usageLineId = (invoiceId: string, meterId: string): string => derivedId('invoiceLine', invoiceId, meterId);

/**
 * Bills one usage period of one subscription, in arrears (the scheduler's close after
 * `usage_grace_days`, or ending with `invoice_usage_now`). `UsagePeriodBilled` goes on the usage
 * stream at the revision its totals were read at, so an event reported meanwhile makes the append
 * conflict and the period is decided again with it; from then on events dated in the period are
 * refused (`timestamp_out_of_period`). The invoice is then raised through the invoice aggregate
 * under its derived id (the accounting sync worker pushes it from the log). Run twice, concurrently
 * or after a crash between the two appends, it finds the period billed and raises the same invoice
 * from what was recorded, so there is only ever one.
 */
export const billUsagePeriod = async (deps: CommandDeps, request: BillUsagePeriodRequest, caller: Caller): Promise<BilledUsagePeriod> => {
  const org = await loadOpenOrganisation(deps.store, request.organisationId);
  const ref = refOf(org);
  const subscription = (await subscriptionCommand.load(deps.store, request.subscriptionId)).state;
  if (subscription.status === 'none' || subscription.subscription.organisationId !== org.organisationId) {
    throw new DomainError('not_found', 'subscription_not_found', `No subscription ${request.subscriptionId}.`, 'subscription');
  }
  const now = deps.clocks.forOrganisation(org.organisationId).now().toISOString();
  // Usage is priced at the meter rates in force when it was used, not at rates a CPI uplift raised at a later renewal.
  const meters = metersDuring(subscription, request.periodStart);
  const command = {
    type: 'BillUsagePeriod',
    subscription,
    meters,
    periodStart: request.periodStart,
    today: dateIn(now, subscription.subscription.timezone),
    now,
    invoiceId: usageInvoiceId(request.subscriptionId, request.periodStart),
    raisesInvoices: !inSetupMode(org),
  } as const;
  const handled = await decideOnUsageStream(
    deps.store,
    request.subscriptionId,
    (state) => {
      const decision = decideUsageBill(command, state);
      return { events: decision.events, result: decision.billed };
    },
    eventMetadata(caller, ref, deps.clocks),
  );
  const billed = handled.result;
  let position = handled.position;
  if (billed.invoiceId !== null) {
    const invoiceId = billed.invoiceId;
    const invoice = usageInvoice({
      subscription: { ...subscription.subscription, meters },
      billed,
      lineIdOf: (meterId) => usageLineId(invoiceId, meterId),
      paymentTermsDays: org.settings.paymentTermsDays,
    });
    // Raising again under the same id changes nothing: a retry after a crash completes what was begun.
    const raised = await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...invoice }, caller, ref);
    position = latestPosition(position, raised.position);
  }
  return { periodStart: billed.periodStart, periodEnd: billed.periodEnd, invoiceId: billed.invoiceId, billedNow: handled.events.length > 0, position };
};

/**
 * The scheduler's question for one subscription: which of its usage periods are due to be billed now
 * (by the organisation's clock, `usage_grace_days` after each ends), oldest first; bill each with
 * `billUsagePeriod` in that order.
 */
export const usagePeriodsDue = async (deps: CommandDeps, organisationId: string, subscriptionId: string): Promise<readonly Readonly<{ periodStart: string; due: string }>[]> => {
  const org = await loadOpenOrganisation(deps.store, organisationId);
  const { state: subscription } = await subscriptionCommand.load(deps.store, subscriptionId);
  if (subscription.status === 'none' || subscription.subscription.organisationId !== org.organisationId) return [];
  const today = dateIn(deps.clocks.forOrganisation(org.organisationId).now().toISOString(), subscription.subscription.timezone);
  return dueUsagePeriods(subscription, await billedUsagePeriods(deps.store, subscriptionId), org.settings.usageGraceDays, today);
};
