import type { InvoiceLine } from '../../domain/invoice/events';
import type { AccountingConnection, OpenOrganisation } from '../../domain/organisation/state';
import { AccountingRefused, type AccountingSystem, AccountingUnavailable, type LineInput } from '../../infra/accounting/port';
import type { CommandDeps } from '../deps';
import { contactOnFirstInvoice } from '../customer/contact-on-first-invoice';
import { invoiceCommand } from '../invoice/invoice-command';
import type { Caller } from '../metadata';

/**
 * What a push came to: `synced` and `refused` are recorded on the invoice; `unavailable` (a 5xx, a
 * timeout, no connection) records nothing and leaves it pending for the worker to try again;
 * `nothing_to_do` when it was already synced or is not raised.
 */
export type PushOutcome = Readonly<{ position: bigint; outcome: 'synced' | 'refused' | 'unavailable' | 'nothing_to_do'; error: string | null }>;

/** An invoice's lines as the accounting system takes them: `usage` lines to the usage revenue account, the rest to revenue. */
export const accountingLines = (lines: readonly InvoiceLine[], accounting: AccountingConnection): LineInput[] =>
  lines.map((line) => ({
    description: [line.name, line.description].filter(Boolean).join(' — '),
    quantity: line.quantity,
    unitAmount: line.unitAmount,
    accountCode: (line.account === 'usage_revenue' ? accounting.usageRevenueAccount : accounting.revenueAccount) ?? '',
  }));

/**
 * Sends a raised invoice to the accounting system, keyed by the invoice's own id so a retry never
 * makes a second document, and records the outcome: synced with its number and total, or failed
 * with the system's message when it refused. An outage records nothing: the invoice stays pending
 * and the accounting sync worker pushes it again.
 */
export const pushInvoice = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  organisation: OpenOrganisation,
  invoiceId: string,
): Promise<PushOutcome> => {
  const invoiceNow = await invoiceCommand.load(deps.store, invoiceId);
  const { state } = invoiceNow;
  if (state.status !== 'raised' || state.sync !== 'pending') return { position: 0n, outcome: 'nothing_to_do', error: null };
  const organisationRef = { id: organisation.organisationId, livemode: organisation.livemode };
  // Recorded from the state pushed: a change meanwhile fails the append's revision check, and the retry reads only what changed.
  const record = (command: Parameters<typeof invoiceCommand>[2]) => invoiceCommand(deps, invoiceId, command, caller, organisationRef, undefined, invoiceNow);
  const fail = async (error: string): Promise<PushOutcome> => ({
    position: (await record({ type: 'RecordInvoiceSyncFailed', invoiceId, error })).position,
    outcome: 'refused',
    error,
  });

  const accounting = organisation.accounting;
  if (!accounting) return fail('No accounting system is connected to this organisation.');
  const invoice = state.invoice;
  try {
    const contactId = await contactOnFirstInvoice(deps, caller, organisation, invoice.customerId);
    if (contactId === null) return fail('The customer has no contact in the accounting system.');
    const pushed = await deps.accounting.tenant(accounting.tenantId).createInvoice(
      {
        contactId,
        reference: invoice.reference,
        date: invoice.invoiceDate.slice(0, 10),
        dueDate: invoice.dueDate?.slice(0, 10) ?? null,
        currency: invoice.currency,
        status: 'draft',
        lines: accountingLines(invoice.lines, accounting),
      },
      invoiceId,
    );
    const synced = await record({
      type: 'RecordInvoiceSynced',
      invoiceId,
      accountingInvoiceId: pushed.id,
      tenantId: accounting.tenantId,
      number: pushed.number,
      status: pushed.status,
      total: pushed.total,
      amountPaid: pushed.amountPaid,
      creditNoteAmount: pushed.amountCredited,
      sent: pushed.sentToContact,
    });
    return { position: synced.position, outcome: 'synced', error: null };
  } catch (error) {
    if (error instanceof AccountingRefused) return fail(error.message);
    if (error instanceof AccountingUnavailable) return { position: 0n, outcome: 'unavailable', error: error.message };
    throw error;
  }
};
