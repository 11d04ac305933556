import { runScheduledStep } from '../commands/subscription/run-scheduled-step';
import { billUsagePeriod } from '../commands/usage/bill-usage-period';
import { billedUsagePeriods } from '../commands/plumbing/usage-states';
import { dueUsagePeriods } from '../domain/usage/billing';
import { subscriptionCommand } from '../commands/plumbing/subscription-command';
import type { Loaded } from '../commands/plumbing/handle';
import type { OpenOrganisation } from '../domain/organisation/state';
import { addDays, compareDates } from '../domain/pricing/calendar';
import type { SubscriptionState } from '../domain/subscription/decider';
import { dueSteps, type ScheduleView, scheduleViewOf, STEP_KINDS } from '../domain/subscription/schedule';
import type { Caller } from '../commands/plumbing/metadata';
import { loopTurns } from '../infra/loop-turns';
import type { Condition } from '../infra/read-store/port';
import { DUE_DATES, type DueDatesDoc, viewOfDoc } from '../projections/read-models/due-dates';
import type { WorkerDeps } from './deps';

/** What running a piece of due work did, and what its subject has due next (up to the run's date), from the state it left. */
export type WorkDone = Readonly<{
  recorded: boolean;
  /** The invoices it raised (the accounting sync worker pushes them). */
  invoiceIds: readonly string[];
  /** Global position of what it recorded (0n: nothing). */
  position: bigint;
  next: readonly DueWork[];
}>;

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
 * A kind of scheduled work: an organisation's work due up to a date, a page of subjects at a time,
 * found through a read model of due dates (never a scan of the log); each piece says, once run,
 * what its subject has due next. Adding a kind of work is adding one entry to STEP_SOURCES.
 */
export type StepSource = Readonly<{
  name: string;
  dueWork(deps: WorkerDeps, org: OpenOrganisation, until: string): AsyncIterable<readonly DueWork[]>;
}>;

/** Due-dates documents read at a time: a page's parse is a few milliseconds. */
const SUBJECT_PAGE = 500;

/**
 * The organisation's due-dates documents meeting `where`, a page at a time, in the order of an index
 * that holds the conditions then `orderBy` (each page a seek: paged in id order, every page sorted
 * every due document again, 47 ms a page at 50,000).
 */
async function* dueDatesPages(deps: WorkerDeps, org: OpenOrganisation, where: readonly Condition[], orderBy: string): AsyncGenerator<DueDatesDoc[]> {
  const owned: Condition[] = [{ field: '_organisation', eq: org.organisationId }, ...where];
  for (let after: string | undefined; ; ) {
    const page = await deps.readStore.find<DueDatesDoc>(DUE_DATES, { where: owned, orderBy, limit: SUBJECT_PAGE, ...(after === undefined ? {} : { startingAfter: after }) });
    if (page.data.length > 0) yield page.data;
    if (!page.hasMore) return;
    after = page.data[page.data.length - 1]!.id;
  }
}

/**
 * A subscription's steps due up to `until`, from the facts the schedule reads. `held`: its state as
 * the previous step left it (read again only where the log cannot say it is unchanged since), so a
 * step costs the same however many others the run holds.
 */
const subscriptionWork = (deps: WorkerDeps, org: OpenOrganisation, until: string, subscriptionId: string, view: ScheduleView, held?: Loaded<SubscriptionState>): DueWork[] =>
  dueSteps(view, org.settings.renewalLeadDays)
    .filter((step) => compareDates(step.date, until) <= 0)
    .map((step) => ({
      kind: step.kind,
      subject: subscriptionId,
      date: step.date,
      order: STEP_KINDS.indexOf(step.kind),
      run: async (caller: Caller): Promise<WorkDone> => {
        const handled = await runScheduledStep(deps, caller, org, subscriptionId, step, held);
        for (const event of handled.events) {
          if (event.type === 'SubscriptionCpiUpliftWithheld') {
            const { year, percent, reason } = event.data;
            deps.logger.warn({ organisationId: org.organisationId, subscriptionId, year, percent, reason }, 'CPI uplift withheld: the renewal bills the prices as they were');
          }
        }
        const { state, revision, position, mark } = handled;
        return {
          recorded: handled.events.length > 0,
          invoiceIds: handled.events.flatMap((event) => (event.type === 'SubscriptionRenewalInvoiceRaised' ? [event.data.invoiceId] : [])),
          position,
          next: state.status === 'none' ? [] : subscriptionWork(deps, org, until, subscriptionId, scheduleViewOf(state), { state, revision, position, mark }),
        };
      },
    }));

/**
 * Start, renewal invoice, roll-over and completion of subscriptions, found through the due-dates
 * read model; the first step of each is known from its document, without reading its stream.
 */
export const subscriptionSteps: StepSource = {
  name: 'subscription',
  dueWork: async function* (deps, org, until) {
    // The renewal invoice is kept at its renewal date: ask lead days further.
    const horizon = addDays(until, org.settings.renewalLeadDays);
    for await (const page of dueDatesPages(deps, org, [{ field: 'next_due', lte: horizon }], 'next_due')) {
      yield page.flatMap((doc) => subscriptionWork(deps, org, until, doc.id, viewOfDoc(doc)));
    }
  },
};

/** A metered subscription's closed usage periods due up to `until`, oldest first (its state and billed periods read). */
const usageWork = async (deps: WorkerDeps, org: OpenOrganisation, until: string, subscriptionId: string): Promise<DueWork[]> => {
  const { state } = await subscriptionCommand.load(deps.store, subscriptionId);
  if (state.status === 'none') return [];
  const billed = await billedUsagePeriods(deps.store, subscriptionId);
  return dueUsagePeriods(state, billed, org.settings.usageGraceDays, until).map((period) => ({
    kind: 'usage_close',
    subject: subscriptionId,
    date: period.due,
    order: STEP_KINDS.length,
    run: async (caller: Caller): Promise<WorkDone> => {
      const { billedNow, invoiceId, position } = await billUsagePeriod(deps, { organisationId: org.organisationId, subscriptionId, periodStart: period.periodStart }, caller);
      return { recorded: billedNow, invoiceIds: billedNow && invoiceId ? [invoiceId] : [], position, next: await usageWork(deps, org, until, subscriptionId) };
    },
  }));
};

/**
 * Usage billing in arrears: each closed usage period of a metered subscription is billed
 * `usage_grace_days` after it ends (`dueUsagePeriods`), oldest first, after that day's subscription steps.
 */
export const usagePeriodSteps: StepSource = {
  name: 'usage',
  dueWork: async function* (deps, org, until) {
    const turns = loopTurns();
    for await (const page of dueDatesPages(deps, org, [{ field: 'metered', eq: true }], 'id')) {
      const work: DueWork[] = [];
      for (const doc of page) {
        work.push(...(await usageWork(deps, org, until, doc.id)));
        await turns.pause();
      }
      yield work;
    }
  },
};

/** Every kind of scheduled work, in the order they run when due on the same date. */
export const STEP_SOURCES: readonly StepSource[] = [subscriptionSteps, usagePeriodSteps];
