import { runScheduledStep } from '../commands/subscription/run-scheduled-step';
import { billUsagePeriod } from '../commands/usage/bill-usage-period';
import { billedUsagePeriods } from '../commands/plumbing/usage-states';
import { dueUsagePeriods } from '../domain/usage/billing';
import { subscriptionCommand } from '../commands/plumbing/subscription-command';
import type { OpenOrganisation } from '../domain/organisation/state';
import { addDays, compareDates } from '../domain/pricing/calendar';
import { dueSteps, scheduleViewOf, STEP_KINDS } from '../domain/subscription/schedule';
import type { Caller } from '../commands/plumbing/metadata';
import { DUE_DATES, type DueDatesDoc } from '../projections/read-models/due-dates';
import type { WorkerDeps } from './deps';

/** What running a piece of due work did: whether it recorded anything, and the invoices it raised (the accounting sync worker pushes them). */
export type WorkDone = Readonly<{ recorded: boolean; invoiceIds: readonly string[] }>;

/** One piece of due work: run on or after `date`; `order` breaks ties on a date; `subject` is what it changes. */
export type DueWork = Readonly<{
  kind: string;
  subject: string;
  date: string;
  order: number;
  /** Runs it at the organisation's clock time. */
  run(caller: Caller): Promise<WorkDone>;
}>;

/**
 * A kind of scheduled work: the subjects of an organisation with something due up to a date (from
 * a read model of due dates, never a scan), and what is due for one subject. Adding a kind of work is
 * adding one entry to STEP_SOURCES.
 */
export type StepSource = Readonly<{
  name: string;
  subjects(deps: WorkerDeps, org: OpenOrganisation, until: string): Promise<readonly string[]>;
  dueWork(deps: WorkerDeps, org: OpenOrganisation, subject: string, until: string): Promise<readonly DueWork[]>;
}>;

/** Start, renewal invoice, roll-over and completion of subscriptions, found through the due-dates read model. */
export const subscriptionSteps: StepSource = {
  name: 'subscription',
  subjects: async (deps, org, until) => {
    // The renewal invoice is kept at its renewal date: ask lead days further.
    const horizon = addDays(until, org.settings.renewalLeadDays);
    const docs = await deps.readStore.findAll<DueDatesDoc>(DUE_DATES, [
      { field: '_organisation', eq: org.organisationId },
      { field: 'next_due', lte: horizon },
    ]);
    return docs.map((doc) => doc.id);
  },
  dueWork: async (deps, org, subscriptionId, until) => {
    const { state } = await subscriptionCommand.load(deps.store, subscriptionId);
    if (state.status === 'none') return [];
    return dueSteps(scheduleViewOf(state), org.settings.renewalLeadDays)
      .filter((step) => compareDates(step.date, until) <= 0)
      .map((step) => ({
        kind: step.kind,
        subject: subscriptionId,
        date: step.date,
        order: STEP_KINDS.indexOf(step.kind),
        run: async (caller: Caller): Promise<WorkDone> => {
          const { events } = await runScheduledStep(deps, caller, org, subscriptionId, step);
          for (const event of events) {
            if (event.type === 'SubscriptionCpiUpliftWithheld') {
              const { year, percent, reason } = event.data;
              deps.logger.warn({ organisationId: org.organisationId, subscriptionId, year, percent, reason }, 'CPI uplift withheld: the renewal bills the prices as they were');
            }
          }
          const invoiceIds = events.flatMap((event) => (event.type === 'SubscriptionRenewalInvoiceRaised' ? [event.data.invoiceId] : []));
          return { recorded: events.length > 0, invoiceIds };
        },
      }));
  },
};

/**
 * Usage billing in arrears: each closed usage period of a metered subscription is billed
 * `usage_grace_days` after it ends (`dueUsagePeriods`), oldest first, after that day's subscription steps.
 */
export const usagePeriodSteps: StepSource = {
  name: 'usage',
  subjects: async (deps, org) => {
    const docs = await deps.readStore.findAll<DueDatesDoc>(DUE_DATES, [
      { field: '_organisation', eq: org.organisationId },
      { field: 'metered', eq: true },
    ]);
    return docs.map((doc) => doc.id);
  },
  dueWork: async (deps, org, subscriptionId, until) => {
    const { state } = await subscriptionCommand.load(deps.store, subscriptionId);
    if (state.status === 'none') return [];
    const billed = await billedUsagePeriods(deps.store, subscriptionId);
    return dueUsagePeriods(state, billed, org.settings.usageGraceDays, until).map((period) => ({
      kind: 'usage_close',
      subject: subscriptionId,
      date: period.due,
      order: STEP_KINDS.length,
      run: async (caller: Caller): Promise<WorkDone> => {
        const { billedNow, invoiceId } = await billUsagePeriod(deps, { organisationId: org.organisationId, subscriptionId, periodStart: period.periodStart }, caller);
        return { recorded: billedNow, invoiceIds: billedNow && invoiceId ? [invoiceId] : [] };
      },
    }));
  },
};

/** Every kind of scheduled work, in the order they run when due on the same date. */
export const STEP_SOURCES: readonly StepSource[] = [subscriptionSteps, usagePeriodSteps];
