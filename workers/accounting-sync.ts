import { pushCreditNote } from '../commands/accounting/push-credit-note';
import { organisationCommand } from '../commands/plumbing/organisation-command';
import { pushInvoice } from '../commands/accounting/push-invoice';
import type { CreditNoteEvent } from '../domain/credit-note/events';
import { decodeEvent } from '../domain/decode-event';
import type { InvoiceEvent } from '../domain/invoice/events';
import type { StoredEvent } from '../infra/event-store/port';
import { exponentialDelay, type JobQueue } from '../infra/jobs/port';
import type { WorkerDeps } from './deps';
import { LogFollower } from './log-follower';

/** One document to push: an invoice or a credit note (exactly one of the two ids). */
export type PushJob = Readonly<{ invoiceId?: string; creditNoteId?: string; organisationId: string; causationId: string }>;

export type AccountingSyncOptions = Readonly<{
  /** First wait after an outage; it doubles up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a raised document's job waits before its first run (none by default: the request that raised it is waiting). */
  raisedDelayMs?: number;
  /**
   * Pushes run at once at most: 16 by default, the accounting client's sockets. Each push spends most
   * of its time waiting (its loads' turn, the round trip, its outcome's commit), so with fewer than
   * the requests waiting for them the pushes queue: at 4, a creation at 16 connections waited about
   * 12 commits for its push, at 16 about 5 (and shared half as many commits).
   */
  concurrency?: number;
}>;

export const ACCOUNTING_PUSH_QUEUE = 'accounting-push';

const HANDLED = ['InvoiceRaised', 'InvoiceSyncRetryRequested', 'CreditNoteRaised'] as const;

/** The job an event calls for, under an id derived from the event (a second enqueue of it is a no-op). */
const jobFor = (event: StoredEvent): { id: string; job: PushJob; raised: boolean } | null => {
  const typed = event as unknown as (InvoiceEvent | CreditNoteEvent) & StoredEvent;
  const base = { organisationId: event.metadata.organisationId, causationId: event.id };
  switch (typed.type) {
    case 'InvoiceRaised':
    case 'InvoiceSyncRetryRequested':
      return { id: `push-${typed.data.invoiceId}-${event.revision}`, job: { ...base, invoiceId: typed.data.invoiceId }, raised: typed.type === 'InvoiceRaised' };
    case 'CreditNoteRaised':
      return { id: `push-${typed.data.creditNoteId}-${event.revision}`, job: { ...base, creditNoteId: typed.data.creditNoteId }, raised: true };
    default:
      return null;
  }
};

/**
 * Accounting sync: every raised invoice and credit note, and every invoice an operator asked to
 * retry, is a push job derived from its event (so a crash between the append and the push loses
 * nothing, and a request that raised one only waits for the outcome). An outage (5xx, timeout, no
 * connection) fails the run and the queue retries it with backoff until it succeeds; a refusal (4xx)
 * is recorded on the document, which stays failed (an invoice until retry_sync). Runs are bounded
 * (`concurrency`) and each yields to the event loop first, so requests already waiting go first.
 */
export const accountingSync = (deps: WorkerDeps, options: AccountingSyncOptions = {}) => {
  const logger = deps.logger.child({ worker: 'accounting-sync' });
  const queue: JobQueue<PushJob> = deps.queues.queue<PushJob>(ACCOUNTING_PUSH_QUEUE, {
    // Until it succeeds: an outage of any length is waited out.
    attempts: 1_000_000,
    delayMs: exponentialDelay(options.retryBaseMs ?? 5_000, options.retryMaxMs ?? 600_000),
  });

  const delayMs = (raised: boolean) => (raised ? (options.raisedDelayMs ?? 0) : 0);
  // On the embedded profile each job is added inside the append of its event; the follower adds the rest.
  const outbox = deps.appendOutbox?.(queue, HANDLED, (event) => {
    const found = jobFor(event);
    return found && { id: found.id, data: found.job, delayMs: delayMs(found.raised) };
  });
  const onEvents = async (events: readonly StoredEvent[]) => {
    // Added together: on the embedded queue they share one commit, not one each.
    // Decoded only here: on the embedded profile the append's outbox has added every one already.
    const found = events
      .filter((event) => !outbox?.handled(event))
      .map((event) => jobFor(decodeEvent(event)))
      .filter((job) => job !== null);
    await Promise.all(found.map(({ id, job, raised }) => queue.add(id, job, { delayMs: delayMs(raised) })));
  };
  const follower = new LogFollower('accounting-sync', deps, HANDLED, onEvents);

  const run = async (job: { id: string; data: PushJob; attempt: number }) => {
    await new Promise((resolve) => setImmediate(resolve));
    const { state } = await organisationCommand.load(deps.store, job.data.organisationId);
    if (state.status !== 'open') return;
    const caller = { actor: { type: 'system' as const }, requestId: null, causationId: job.data.causationId };
    const started = deps.clocks.wall.now().getTime();
    const { invoiceId, creditNoteId } = job.data;
    const result = creditNoteId ? await pushCreditNote(deps, caller, state, creditNoteId) : await pushInvoice(deps, caller, state, invoiceId!);
    logger.info(
      { invoiceId, creditNoteId, organisationId: job.data.organisationId, jobId: job.id, attempt: job.attempt, outcome: result.outcome, error: result.error, ms: deps.clocks.wall.now().getTime() - started },
      creditNoteId ? 'credit note push attempt' : 'invoice push attempt',
    );
    if (result.outcome === 'unavailable') throw new Error(result.error ?? 'the accounting system is unavailable');
  };

  /** Takes jobs in this process (every process shares them); the follower runs under a lease. */
  const processJobs = () => queue.process(run, { concurrency: options.concurrency ?? 16 });
  return {
    queue,
    follower,
    processJobs,
    /** Takes jobs and follows the log, unleased: for a process that runs alone (tests). */
    start: async () => {
      processJobs();
      await follower.start();
    },
    stop: () => {
      outbox?.close();
      return follower.stop();
    },
  };
};
