import { awaitSync } from '../commands/await-sync';
import type { Caller } from '../commands/metadata';
import { loadOpenOrganisation } from '../commands/organisation/load-open-organisation';
import { organisationCommand } from '../commands/organisation/organisation-command';
import type { OpenOrganisation } from '../domain/organisation/state';
import { advanceRunning, decideClockAdvance } from '../domain/organisation/time';
import { compareDates, dateIn, startOfDate } from '../domain/pricing/calendar';
import { ORGANISATIONS, type OrganisationDoc } from '../projections/organisations';
import type { WorkerDeps } from './deps';
import { periodicPass } from './periodic-pass';
import { type DueWork, STEP_SOURCES, type StepSource } from './scheduled-steps';

export type SchedulerOptions = Readonly<{ intervalSeconds: number; sources?: readonly StepSource[] }>;

export type SchedulerStatus = Readonly<{ interval_seconds: number; last_run_at: string | null; steps_run: number; last_error: string | null }>;

const SCHEDULER: Caller = { actor: { type: 'scheduler' }, requestId: null };

const earliest = (a: DueWork, b: DueWork): number => compareDates(a.date, b.date) || a.order - b.order || (a.subject < b.subject ? -1 : 1);

/** What a run of due work did: the steps that recorded something, and the invoices they raised. */
export type DueWorkRun = Readonly<{ steps: number; invoiceIds: readonly string[] }>;

/**
 * Runs an organisation's due work up to `until` (a date), in order of due date: after each step only
 * its subject is asked again, so a subscription left behind by downtime catches up step by step
 * (renewal invoice, roll-over, next renewal invoice…). `beforeStep` lets a test clock advance move the
 * clock to each step's date first. A step that decides nothing is not asked again in this run.
 */
export const runDueWork = async (
  deps: WorkerDeps,
  org: OpenOrganisation,
  until: string,
  options: Readonly<{ sources?: readonly StepSource[]; beforeStep?: (work: DueWork) => void; /** Told how many steps are due and not yet run, whenever that changes. */ onDue?: (steps: number) => void }> = {},
): Promise<DueWorkRun> => {
  const sources = options.sources ?? STEP_SOURCES;
  const pending = new Map<string, DueWork[]>();
  const key = (source: StepSource, subject: string) => `${source.name}:${subject}`;
  const refresh = async (source: StepSource, subject: string, skip: ReadonlySet<string>) => {
    const work = (await source.dueWork(deps, org, subject, until)).filter((w) => !skip.has(`${w.kind}@${w.date}`));
    pending.set(key(source, subject), work.map((w) => Object.assign(w, { source })));
  };
  for (const source of sources) {
    for (const subject of await source.subjects(deps, org, until)) await refresh(source, subject, new Set());
  }
  const skipped = new Map<string, Set<string>>();
  let steps = 0;
  const invoiceIds: string[] = [];
  for (;;) {
    const due = [...pending.values()].flat();
    options.onDue?.(due.length);
    const next = due.sort(earliest)[0] as (DueWork & { source: StepSource }) | undefined;
    if (!next) return { steps, invoiceIds };
    options.beforeStep?.(next);
    const done = await next.run(SCHEDULER);
    invoiceIds.push(...done.invoiceIds);
    const subjectKey = key(next.source, next.subject);
    const skip = skipped.get(subjectKey) ?? new Set<string>();
    if (done.recorded) steps++;
    else skip.add(`${next.kind}@${next.date}`);
    skipped.set(subjectKey, skip);
    await refresh(next.source, next.subject, skip);
  }
};

/** Sets a sandbox's test clock where its organisation's events leave it (real time when they never set it). */
const restoreTestClock = async (deps: Pick<WorkerDeps, 'store' | 'clocks'>, organisationId: string): Promise<void> => {
  const { state } = await organisationCommand.load(deps.store, organisationId);
  deps.clocks.setTestClock(organisationId, state.status === 'open' && state.testClock ? new Date(state.testClock) : null);
};

/** Sets every sandbox's test clock from its organisation's events, so a restart keeps the clocks where they stood. */
export const restoreTestClocks = async (deps: Pick<WorkerDeps, 'store' | 'readStore' | 'clocks'>): Promise<void> => {
  for (const sandbox of await deps.readStore.findAll<OrganisationDoc>(ORGANISATIONS, [{ field: 'livemode', eq: false }])) {
    await restoreTestClock(deps, sandbox.id);
  }
};

export type TestClockObject = Readonly<{ object: 'test_clock'; frozen_time: string; status: 'ready' }>;

export type TestClockOptions = Readonly<{
  /** ACCOUNTING_PUSH_WAIT_MS: how long the answer waits for the accounting sync worker's push of the invoices the advance raised. */
  pushWaitMs: number;
  sources?: readonly StepSource[];
}>;

/**
 * `POST /admin/v1/organisations/{sandbox}/clock/advance`: checks the date (a sandbox, not back, at
 * most 366 days), then steps through every due start, renewal invoice, roll-over and end up to that
 * date in order, the clock set to each step's date, and records where the clock stands (midday of
 * the date in the sandbox's timezone) as an organisation event. Another advance (or a reset) of the
 * same sandbox is refused while one runs. The steps never push: the accounting sync worker pushes
 * the invoices they raised, and the answer waits for those outcomes as a request does (`awaitSync`),
 * so it usually finds them synced, and past the wait they are answered as they stand (pending).
 */
export const testClockAdvancer = (deps: WorkerDeps, options: TestClockOptions) => ({
  advance: async (organisationId: string, date: string, caller: Caller): Promise<TestClockObject> => {
    if (!deps.clocks.beginAdvance(organisationId)) throw advanceRunning();
    let advanced: Readonly<{ frozen: string; position: bigint; invoiceIds: readonly string[] }>;
    try {
      const org = await loadOpenOrganisation(deps.store, organisationId);
      const clock = deps.clocks.forOrganisation(organisationId);
      const from = clock.now().toISOString();
      const frozen = decideClockAdvance(org, from, date);
      // Work recorded just before the advance is in the due-dates read model before it is read.
      await deps.waitForProjections(await deps.store.headPosition());
      const setTo = (instant: string) => {
        if (instant > clock.now().toISOString()) deps.clocks.setTestClock(organisationId, new Date(instant));
      };
      deps.clocks.setTestClock(organisationId, new Date(from));
      const run = await runDueWork(deps, org, date, { sources: options.sources, beforeStep: (work) => setTo(startOfDate(work.date, org.settings.timezone)) });
      const recorded = await organisationCommand(deps, organisationId, { type: 'AdvanceTestClock', now: from, date }, caller, { id: organisationId, livemode: false });
      deps.clocks.setTestClock(organisationId, new Date(frozen));
      deps.logger.info({ organisationId, from, to: frozen, steps: run.steps }, 'test clock advanced');
      advanced = { frozen, position: recorded.position, invoiceIds: run.invoiceIds };
    } catch (error) {
      // A refused or failed advance leaves the clock where its events say.
      await restoreTestClock(deps, organisationId).catch(() => undefined);
      throw error;
    } finally {
      deps.clocks.endAdvance(organisationId);
    }
    const synced = await awaitSync(deps.store, advanced.position, { invoiceIds: advanced.invoiceIds }, options.pushWaitMs);
    await deps.waitForProjections(synced);
    return { object: 'test_clock', frozen_time: advanced.frozen, status: 'ready' };
  },
});

/**
 * The real-time scheduler: every interval (and once at start, catching up after downtime) it runs
 * each organisation's due work up to its date on its clock. A sandbox whose test clock is set is left
 * to its advances; so is one being advanced.
 */
export const scheduler = (deps: WorkerDeps, options: SchedulerOptions) => {
  const logger = deps.logger.child({ worker: 'scheduler' });
  let stepsRun = 0;
  /** Steps due and not yet run, by organisation, as its last pass left them (a failed step stays due). */
  const due = new Map<string, number>();
  const runs = periodicPass(deps.clocks.wall, options.intervalSeconds, {
    items: () => deps.readStore.findAll<OrganisationDoc>(ORGANISATIONS),
    each: async (doc) => {
      if (deps.clocks.testClock(doc.id) !== null || deps.clocks.advancing(doc.id)) return;
      const org = await loadOpenOrganisation(deps.store, doc.id);
      const today = dateIn(deps.clocks.forOrganisation(doc.id).now().toISOString(), org.settings.timezone);
      const { steps: ran } = await runDueWork(deps, org, today, { sources: options.sources, onDue: (steps) => due.set(doc.id, steps) });
      stepsRun += ran;
      if (ran > 0) logger.info({ organisationId: doc.id, steps: ran, today }, 'scheduled steps run');
    },
    itemFailed: (error, doc) => logger.warn({ err: error, organisationId: doc.id }, 'scheduled steps failed; trying again on the next run'),
    failed: (error) => logger.error({ err: error }, 'scheduler run failed'),
  });
  return {
    run: runs.run,
    start: runs.start,
    stop: runs.stop,
    dueSteps: (): number => [...due.values()].reduce((sum, steps) => sum + steps, 0),
    status: (): SchedulerStatus => ({
      interval_seconds: options.intervalSeconds,
      last_run_at: runs.last().at?.toISOString() ?? null,
      steps_run: stepsRun,
      last_error: runs.last().error,
    }),
  };
};
