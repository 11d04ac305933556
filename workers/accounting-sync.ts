import { organisationCommand } from '../commands/organisation/organisation-command';
import { pushInvoice } from '../commands/invoice/push-invoice';
import type { InvoiceEvent } from '../domain/invoice/events';
import type { StoredEvent } from '../infra/event-store/port';
import { exponentialDelay, type JobQueue } from '../infra/jobs/port';
import type { WorkerDeps } from './deps';
import { LogFollower } from './log-follower';

export type PushJob = Readonly<{ invoiceId: string; organisationId: string; causationId: string }>;

export type AccountingSyncOptions = Readonly<{
  /** First wait after an outage; it doubles up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A raised invoice's job waits this long first, so the request that raised it usually pushes it itself. */
  raisedDelayMs?: number;
}>;

export const ACCOUNTING_PUSH_QUEUE = 'accounting-push';

/**
 * Accounting sync: every raised invoice, and every invoice an operator asked to retry, is a push
 * job derived from its event (so a crash between the append and the push loses nothing). An
 * outage (5xx, timeout, no connection) fails the run and the queue retries it with backoff until
 * it succeeds; a refusal (4xx) is recorded on the invoice, which stays failed until retry_sync.
 */
export const accountingSync = (deps: WorkerDeps, options: AccountingSyncOptions = {}) => {
  const logger = deps.logger.child({ worker: 'accounting-sync' });
  const queue: JobQueue<PushJob> = deps.queues.queue<PushJob>(ACCOUNTING_PUSH_QUEUE, {
    // Until it succeeds: an outage of any length is waited out.
    attempts: 1_000_000,
    delayMs: exponentialDelay(options.retryBaseMs ?? 5_000, options.retryMaxMs ?? 600_000),
  });

  const onEvents = async (events: readonly StoredEvent[]) => {
    for (const event of events) {
      const typed = event as unknown as InvoiceEvent & StoredEvent;
      if (typed.type !== 'InvoiceRaised' && typed.type !== 'InvoiceSyncRetryRequested') continue;
      const job: PushJob = { invoiceId: typed.data.invoiceId, organisationId: event.metadata.organisationId, causationId: event.id };
      const delayMs = typed.type === 'InvoiceRaised' ? (options.raisedDelayMs ?? 1_000) : 0;
      await queue.add(`push-${typed.data.invoiceId}-${event.revision}`, job, { delayMs });
    }
  };
  const follower = new LogFollower('accounting-sync', deps, ['InvoiceRaised', 'InvoiceSyncRetryRequested'], onEvents);

  const run = async (job: { id: string; data: PushJob; attempt: number }) => {
    const { state } = await organisationCommand.load(deps.store, job.data.organisationId);
    if (state.status !== 'open') return;
    const caller = { actor: { type: 'system' as const }, requestId: null, causationId: job.data.causationId };
    const started = deps.clocks.wall.now().getTime();
    const result = await pushInvoice(deps, caller, state, job.data.invoiceId);
    logger.info(
      { invoiceId: job.data.invoiceId, organisationId: job.data.organisationId, jobId: job.id, attempt: job.attempt, outcome: result.outcome, error: result.error, ms: deps.clocks.wall.now().getTime() - started },
      'invoice push attempt',
    );
    if (result.outcome === 'unavailable') throw new Error(result.error ?? 'the accounting system is unavailable');
  };

  return {
    queue,
    follower,
    start: async () => {
      queue.process(run, { concurrency: 4 });
      await follower.start();
    },
    stop: () => follower.stop(),
  };
};
