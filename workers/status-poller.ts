import { invoiceCommand } from '../commands/invoice/invoice-command';
import { DomainError } from '../domain/shared/domain-error';
import type { AccountingInvoice } from '../infra/accounting/port';
import { INVOICES, type InvoiceDoc } from '../projections/invoices';
import { ORGANISATIONS, type OrganisationDoc } from '../projections/organisations';
import type { WorkerDeps } from './deps';
import { periodicPass } from './periodic-pass';

export type StatusPollerOptions = Readonly<{ intervalSeconds: number }>;

export type PollerStatus = Readonly<{
  name: 'status-poller';
  interval_seconds: number;
  last_poll_at: string | null;
  /** Seconds since the last complete poll (null before the first). */
  lag_seconds: number | null;
  last_error: string | null;
}>;

/** Sightings are asked for from a little before the latest change seen, so a change stamped in the same instant is not missed. */
const OVERLAP_MS = 1_000;
const cursorName = (tenantId: string) => `poller:${tenantId}`;

/**
 * The status poller: every interval it asks each connected organisation's accounting system for
 * the documents changed since its last look and records what it sees of our invoices as
 * `InvoiceStatusObserved` events, so statuses in the read models follow the accounting system and
 * are part of the history. The invoice's decider records a sighting once: the same change seen
 * again (same change time, or nothing different) adds nothing. Changes made between two polls
 * arrive as one observation (one `invoice.paid` from `draft`).
 */
export const statusPoller = (deps: WorkerDeps, options: StatusPollerOptions) => {
  const logger = deps.logger.child({ worker: 'status-poller' });

  const observe = async (organisation: OrganisationDoc, seen: AccountingInvoice, invoiceId: string) => {
    try {
      const { events } = await invoiceCommand(
        deps,
        invoiceId,
        {
          type: 'RecordInvoiceStatusObserved',
          invoiceId,
          status: seen.status,
          total: seen.total,
          amountPaid: seen.amountPaid,
          creditNoteAmount: seen.amountCredited,
          sent: seen.sentToContact,
          updatedAt: seen.updatedAt,
        },
        { actor: { type: 'system' }, requestId: null },
        { id: organisation.id, livemode: organisation.livemode },
      );
      if (events.length > 0) logger.info({ invoiceId, organisationId: organisation.id, status: seen.status, amountPaid: seen.amountPaid }, 'invoice status observed');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  };

  const pollTenant = async (organisation: OrganisationDoc, tenantId: string) => {
    const cursor = await deps.readStore.checkpoint(cursorName(tenantId));
    const since = new Date(Math.max(0, Number(cursor) - OVERLAP_MS)).toISOString();
    const changed = await deps.accounting.tenant(tenantId).listUpdatedSince(since);
    if (changed.invoices.length === 0) return;
    const ours = await deps.readStore.findAll<InvoiceDoc>(INVOICES, [
      { field: '_organisation', eq: organisation.id },
      { field: 'accounting.invoice_id', in: changed.invoices.map((invoice) => invoice.id) },
    ]);
    const byAccountingId = new Map(ours.map((doc) => [doc.accounting.invoice_id, doc.id]));
    for (const seen of changed.invoices) {
      const invoiceId = byAccountingId.get(seen.id);
      if (invoiceId) await observe(organisation, seen, invoiceId);
    }
    const latest = Math.max(...changed.invoices.map((invoice) => Date.parse(invoice.updatedAt)));
    if (BigInt(latest) > cursor) await deps.readStore.commit([], [{ name: cursorName(tenantId), position: BigInt(latest) }]);
  };

  const polls = periodicPass(deps.clocks.wall, options.intervalSeconds, {
    items: () => deps.readStore.findAll<OrganisationDoc>(ORGANISATIONS, [{ field: 'accounting.connected', eq: true }]),
    each: async (organisation) => {
      if (organisation.accounting.tenant_id) await pollTenant(organisation, organisation.accounting.tenant_id);
    },
    itemFailed: (error, organisation) => logger.warn({ err: error, organisationId: organisation.id }, 'status poll failed; trying again on the next poll'),
    failed: (error) => logger.error({ err: error }, 'status poll failed'),
  });

  return {
    poll: polls.run,
    start: polls.start,
    stop: polls.stop,
    status: (): PollerStatus => ({
      name: 'status-poller',
      interval_seconds: options.intervalSeconds,
      last_poll_at: polls.last().at?.toISOString() ?? null,
      lag_seconds: polls.last().at ? Math.round((deps.clocks.wall.now().getTime() - polls.last().at!.getTime()) / 1000) : null,
      last_error: polls.last().error,
    }),
  };
};
