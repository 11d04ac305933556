import { setImmediate as nextTurn } from 'node:timers/promises';
import { invoiceCommand } from '../commands/plumbing/invoice-command';
import { DomainError } from '../domain/shared/domain-error';
import { creditNoteCommand } from '../commands/plumbing/credit-note-command';
import type { AccountingCreditNote, AccountingInvoice } from '../infra/accounting/port';
import { CREDIT_NOTES, type CreditNoteDoc } from '../projections/read-models/credit-notes';
import { INVOICES, type InvoiceDoc } from '../projections/read-models/invoices';
import { ORGANISATIONS, type OrganisationDoc } from '../projections/read-models/organisations';
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
/** Sightings looked up and recorded at once. */
const OBSERVED_AT_ONCE = 100;

/**
 * The status poller: every interval it asks each connected organisation's accounting system for
 * the documents changed since its last look and records what it sees of our invoices and credit
 * notes as `InvoiceStatusObserved` and `CreditNoteStatusObserved` events (approved, paid, credit
 * applied, voided…), so statuses in the read models follow the accounting system and are part of
 * the history. Each document's decider records a sighting once: the same change seen
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

  const observeCreditNote = async (organisation: OrganisationDoc, seen: AccountingCreditNote, creditNoteId: string) => {
    try {
      const { events } = await creditNoteCommand(
        deps,
        creditNoteId,
        { type: 'RecordCreditNoteStatusObserved', creditNoteId, status: seen.status, total: seen.total, remainingCredit: seen.remainingCredit, sent: seen.sentToContact, updatedAt: seen.updatedAt },
        { actor: { type: 'system' }, requestId: null },
        { id: organisation.id, livemode: organisation.livemode },
      );
      if (events.length > 0) logger.info({ creditNoteId, organisationId: organisation.id, status: seen.status, remainingCredit: seen.remainingCredit }, 'credit note status observed');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  };

  /** Our ids of the documents the accounting system names, by its ids (an index of the read model, `accounting.…_id`). */
  const oursByAccountingId = async <D extends { id: string }>(
    collection: string,
    field: string,
    accountingIdOf: (doc: D) => string | null,
    organisationId: string,
    accountingIds: string[],
  ): Promise<Map<string | null, string>> => {
    const docs = await deps.readStore.findAll<D>(collection, [
      { field: '_organisation', eq: organisationId },
      { field, in: accountingIds },
    ]);
    return new Map(docs.map((doc) => [accountingIdOf(doc), doc.id]));
  };

  /**
   * Records the sightings a chunk at a time: its documents looked up at once, its commands run
   * together (their appends share a commit), the loop turning between chunks, so thousands of
   * changes (a billing day's invoices) never hold the loop for long.
   */
  const observeAll = async <Seen extends { id: string }>(
    changed: readonly Seen[],
    lookUp: (accountingIds: string[]) => Promise<Map<string | null, string>>,
    record: (seen: Seen, ourId: string) => Promise<void>,
  ) => {
    for (let from = 0; from < changed.length; from += OBSERVED_AT_ONCE) {
      const chunk = changed.slice(from, from + OBSERVED_AT_ONCE);
      const ours = await lookUp(chunk.map((seen) => seen.id));
      await Promise.all(chunk.flatMap((seen) => (ours.has(seen.id) ? [record(seen, ours.get(seen.id)!)] : [])));
      await nextTurn();
    }
  };

  const pollTenant = async (organisation: OrganisationDoc, tenantId: string) => {
    const cursor = await deps.readStore.checkpoint(cursorName(tenantId));
    const since = new Date(Math.max(0, Number(cursor) - OVERLAP_MS)).toISOString();
    const changed = await deps.accounting.tenant(tenantId).listUpdatedSince(since);
    if (changed.invoices.length + changed.creditNotes.length === 0) return;
    await observeAll(
      changed.invoices,
      (ids) => oursByAccountingId<InvoiceDoc>(INVOICES, 'accounting.invoice_id', (doc) => doc.accounting.invoice_id, organisation.id, ids),
      (seen, invoiceId) => observe(organisation, seen, invoiceId),
    );
    await observeAll(
      changed.creditNotes,
      (ids) => oursByAccountingId<CreditNoteDoc>(CREDIT_NOTES, 'accounting.credit_note_id', (doc) => doc.accounting.credit_note_id, organisation.id, ids),
      (seen, creditNoteId) => observeCreditNote(organisation, seen, creditNoteId),
    );
    let latest = 0;
    for (const document of [...changed.invoices, ...changed.creditNotes]) latest = Math.max(latest, Date.parse(document.updatedAt));
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
