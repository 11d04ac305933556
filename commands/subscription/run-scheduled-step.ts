import { renewalInvoice } from '../../domain/invoice/renewal-invoice';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { inSetupMode } from '../../domain/organisation/rules';
import { latestCpi } from '../../domain/organisation/time';
import { dateIn } from '../../domain/pricing/calendar';
import { subscriptionDecider, type SubscriptionState } from '../../domain/subscription/decider';
import { type SubscriptionEvent, subscriptionStream } from '../../domain/subscription/events';
import type { DueStep, RunScheduledStep } from '../../domain/subscription/schedule';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../plumbing/deps';
import { type Loaded, loadState } from '../plumbing/handle';
import { invoiceCommand } from '../plumbing/invoice-command';
import { type Caller, refOf } from '../plumbing/metadata';
import { usageTotalsFrom } from '../plumbing/usage-states';
import { subscriptionCommand } from '../plumbing/subscription-command';

/** The renewal invoice of a subscription's period: one id per subscription and period, whoever raises it. */
export const renewalInvoiceIdFor = (subscriptionId: string, periodStart: string): string => derivedId('invoice', subscriptionId, 'renewal', periodStart);

/**
 * Raises the renewal invoice a decision records, before the decision is appended: a crash in between
 * decides again under the same invoice id, and raising it again changes nothing.
 */
const raiseRenewalInvoice = (deps: CommandDeps, caller: Caller, org: OpenOrganisation, now: string) => async (events: SubscriptionEvent[], state: SubscriptionState) => {
  const raised = events.find((event) => event.type === 'SubscriptionRenewalInvoiceRaised');
  if (!raised || raised.type !== 'SubscriptionRenewalInvoiceRaised') return;
  const after = events.reduce(subscriptionDecider.evolve, state);
  if (after.status === 'none') return;
  const invoiceId = raised.data.invoiceId;
  const invoice = renewalInvoice({
    state: after,
    raised: raised.data,
    lineIds: (i) => derivedId('invoiceLine', invoiceId, String(i)),
    now,
    paymentTermsDays: org.settings.paymentTermsDays,
  });
  await invoiceCommand(deps, invoiceId, { type: 'RaiseInvoice', ...invoice }, caller, refOf(org));
};

/**
 * One scheduled step of one subscription at the organisation's clock time: the decider decides it
 * only when due and not yet done, so a second run (a retry, another scheduler) records nothing. A
 * renewal invoice is raised with it; the accounting sync worker pushes it (a job derived from its
 * event), never this step. `held`: the subscription as a previous step left it, brought up to date
 * (read only where the log cannot say it is unchanged since), rather than kept among the process's states.
 */
export const runScheduledStep = async (deps: CommandDeps, caller: Caller, org: OpenOrganisation, subscriptionId: string, step: DueStep, held?: Loaded<SubscriptionState>) => {
  const now = deps.clocks.forOrganisation(org.organisationId).now().toISOString();
  const cpi = latestCpi(org);
  const loaded = held ? await loadState(deps.store, subscriptionStream(subscriptionId), subscriptionDecider, held) : await subscriptionCommand.load(deps.store, subscriptionId);
  // A CPI uplift decided with the renewal invoice reprices the usage already recorded for the periods it starts.
  const metered = loaded.state.status !== 'none' && loaded.state.subscription.cpiEnabled && loaded.state.subscription.meters.length > 0;
  const usageFrom = step.kind === 'renewal_invoice' && cpi !== null && metered ? await usageTotalsFrom(deps.store, subscriptionId, step.period) : new Map();
  const command: RunScheduledStep = {
    type: 'RunScheduledStep',
    step: step.kind,
    period: step.period,
    today: dateIn(now, org.settings.timezone),
    renewalLeadDays: org.settings.renewalLeadDays,
    setupMode: inSetupMode(org),
    renewalInvoiceId: renewalInvoiceIdFor(subscriptionId, step.period),
    cpi,
    usageFrom,
  };
  return subscriptionCommand(deps, subscriptionId, command, caller, refOf(org), raiseRenewalInvoice(deps, caller, org, now), loaded);
};
