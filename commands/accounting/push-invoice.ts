import type { InvoiceCommand } from '../../domain/invoice/decider';
import type { OpenOrganisation } from '../../domain/organisation/state';
import type { AccountingInvoice, AccountingSystem } from '../../infra/accounting/port';
import { customerCommand } from '../plumbing/customer-command';
import type { CommandDeps } from '../plumbing/deps';
import { invoiceCommand } from '../plumbing/invoice-command';
import { type Caller, refOf } from '../plumbing/metadata';
import { accountingLines } from './accounting-lines';
import { contactOnFirstInvoice } from './contact-on-first-invoice';
import { NOTHING_TO_DO, type PushOutcome, pushDocument } from './push-document';

/**
 * Sends a raised invoice to the accounting system as a draft, keyed by the invoice's own id, and
 * records it synced with its number and total (`pushDocument` says what else may come of it). A
 * customer copied into a sandbox gets its contact on its first invoice.
 */
export const pushInvoice = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  organisation: OpenOrganisation,
  invoiceId: string,
): Promise<PushOutcome> => {
  const loaded = await invoiceCommand.load(deps.store, invoiceId);
  const { state } = loaded;
  if (state.status !== 'raised' || state.sync !== 'pending') return NOTHING_TO_DO;
  const invoice = state.invoice;
  return pushDocument<AccountingInvoice, InvoiceCommand>(deps, organisation, {
    contactId: async () => {
      const customer = await customerCommand.load(deps.store, invoice.customerId);
      return customer.state.status === 'none' ? null : contactOnFirstInvoice(deps, caller, organisation, customer.state);
    },
    create: (tenant, contactId, accounting) =>
      tenant.createInvoice(
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
      ),
    synced: (pushed, accounting) =>
      Promise.resolve({
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
      }),
    failed: (error) => ({ type: 'RecordInvoiceSyncFailed', invoiceId, error }),
    // Recorded from the state pushed: a change meanwhile fails the append's revision check, and the retry reads only what changed.
    record: (command) => invoiceCommand(deps, invoiceId, command, caller, refOf(organisation), undefined, loaded),
  });
};
