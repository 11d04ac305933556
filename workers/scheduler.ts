import { awaitSync } from '../commands/accounting/await-sync';
import type { Caller } from '../commands/plumbing/metadata';
import { loadOpenOrganisation } from '../commands/plumbing/load-open-organisation';
import { organisationCommand } from '../commands/plumbing/organisation-command';
import type { OpenOrganisation } from '../domain/organisation/state';
import { advanceRunning, decideClockAdvance } from '../domain/organisation/time';
import { Heap } from 'heap-js';
import { dateIn, daysBetween, FIRST_DATE, startOfDate } from '../domain/pricing/calendar';
import { loopTurns } from '../infra/loop-turns';
import { ORGANISATIONS, type OrganisationDoc } from '../projections/read-models/organisations';
import type { WorkerDeps } from './deps';
import { periodicPass } from './periodic-pass';
import { type DueWork, STEP_SOURCES, type StepSource } from './scheduled-steps';

export type SchedulerOptions = Readonly<{ intervalSeconds: number; sources?: readonly StepSource[] }>;

export type SchedulerStatus = Readonly<{ interval_seconds: number; last_run_at: string | null; steps_run: number; last_error: string | null }>;

const SCHEDULER: Caller = { actor: { type: 'scheduler' }, requestId: null };

/** Steps run at once (each of its own subject, all due on one date): their appends share a group commit, and a batch holds the loop a few milliseconds. */
export const STEP_BATCH = 32;

/** A piece of due work in the queue, its date read once as a day number. */
type Queued = Readonly<{ work: DueWork; day: number }>;

const earliest = (a: Queued, b: Queued): number =>
  a.day - b.day || a.work.order - b.work.order || (a.work.subject < b.work.subject ? -1 : a.work.subject > b.work.subject ? 1 : 0);

/** What a run of due work did: the steps that recorded something, and the invoices they raised. */
export type DueWorkRun = Readonly<{ steps: number; invoiceIds: readonly string[] }>;

export type DueWorkOptions = Readonly<{
  sources?: readonly StepSource[];
  /** Before the steps due on a date (a test clock advance moves the clock there). */
  onDate?: (date: string) => void;
  batchSize?: number;
}>;

/**
 * Runs an organisation's due work up to `until` (a date), in order of due date, from a priority
 * queue holding each subject's next piece of work: a step's outcome says what its subject has due
 * next, so a subscription left behind by downtime catches up step by step (renewal invoice,
 * roll-over, next renewal invoice…), and a step costs the same however many subjects the queue
 * holds. Steps due on one date run in batches of different subjects, each batch followed by the
 * read models; the queue is filled a page of subjects at a time, the loop turning between. A step
 * that decides nothing is not run again in this run. A step that fails fails the run, once the
 * rest of its batch is done.
 */
export const runDueWork = async (deps: WorkerDeps, org: OpenOrganisation, until: string, options: DueWorkOptions = {}): Promise<DueWorkRun> => {
  const queue = new Heap<Queued>(earliest);
  /** Per subject, the steps (`kind@date`) that decided nothing in this run. */
  const skipped = new Map<string, Set<string>>();
  const isSkipped = (work: DueWork) => skipped.get(work.subject)?.has(`${work.kind}@${work.date}`) ?? false;
  /** Each subject's earliest piece of work, among those not skipped. */
  const enqueue = (work: readonly DueWork[]) => {
    const first = new Map<string, Queued>();
    for (const piece of work) {
      if (isSkipped(piece)) continue;
      const candidate = { work: piece, day: daysBetween(FIRST_DATE, piece.date) };
      const known = first.get(piece.subject);
      if (!known || earliest(candidate, known) < 0) first.set(piece.subject, candidate);
    }
    for (const item of first.values()) queue.push(item);
  };
  const turns = loopTurns();
  for (const source of options.sources ?? STEP_SOURCES) {
    for await (const page of source.dueWork(deps, org, until)) {
      enqueue(page);
      await turns.pause();
    }
  }
  const batchSize = options.batchSize ?? STEP_BATCH;
  /** The next steps due on the earliest date, at most one per subject (a subject's next waits for its outcome). */
  const takeBatch = (): DueWork[] => {
    const first = queue.pop()!;
    const batch = [first.work];
    const subjects = new Set([first.work.subject]);
    const aside: Queued[] = [];
    for (let next = queue.peek(); next && next.day === first.day && batch.length < batchSize; next = queue.peek()) {
      queue.pop();
      if (subjects.has(next.work.subject)) aside.push(next);
      else {
        batch.push(next.work);
        subjects.add(next.work.subject);
      }
    }
    for (const item of aside) queue.push(item);
    return batch;
  };
  let steps = 0;
  const invoiceIds: string[] = [];
  while (queue.length > 0) {
    const batch = takeBatch();
    options.onDate?.(batch[0]!.date);
    const outcomes = await Promise.allSettled(batch.map((work) => work.run(SCHEDULER)));
    let position = 0n;
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') return;
      const done = outcome.value;
      const work = batch[i]!;
      invoiceIds.push(...done.invoiceIds);
      if (done.recorded) steps++;
      else skipped.set(work.subject, (skipped.get(work.subject) ?? new Set()).add(`${work.kind}@${work.date}`));
      if (done.position > position) position = done.position;
      enqueue(done.next);
    });
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    // The read models take in the batch before the next one: they lag the steps by a batch at most.
    if (position > 0n) await deps.waitForProjections(position);
    await turns.pause();
  }
  return { steps, invoiceIds };
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
      const run = await runDueWork(deps, org, date, { sources: options.sources, onDate: (due) => setTo(startOfDate(due, org.settings.timezone)) });
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
  const runs = periodicPass(deps.clocks.wall, options.intervalSeconds, {
    items: () => deps.readStore.findAll<OrganisationDoc>(ORGANISATIONS),
    each: async (doc) => {
      if (deps.clocks.testClock(doc.id) !== null || deps.clocks.advancing(doc.id)) return;
      const org = await loadOpenOrganisation(deps.store, doc.id);
      const today = dateIn(deps.clocks.forOrganisation(doc.id).now().toISOString(), org.settings.timezone);
      const { steps: ran } = await runDueWork(deps, org, today, { sources: options.sources });
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
    status: (): SchedulerStatus => ({
      interval_seconds: options.intervalSeconds,
      last_run_at: runs.last().at?.toISOString() ?? null,
      steps_run: stepsRun,
      last_error: runs.last().error,
    }),
  };
};
