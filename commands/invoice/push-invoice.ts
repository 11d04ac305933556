import type { OpenOrganisation } from '../../domain/organisation/decider';
import { AccountingRefused, type AccountingSystem, AccountingUnavailable } from '../../infra/accounting/port';
import type { CommandDeps } from '../deps';
import { customerCommand } from '../customer/customer-command';
import { invoiceCommand } from '../invoice/invoice-command';
import type { Caller } from '../metadata';

/**
 * Sends a raised invoice to the accounting system, keyed by the invoice's own id so a retry never
 * makes a second document, and records the outcome: synced with its number and total, or failed
 * with the system's message when it refused the invoice. When it could not be reached the invoice
 * stays pending and nothing is recorded.
 */
export const pushInvoice = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  organisation: OpenOrganisation,
  invoiceId: string,
) => {
  const { state } = await invoiceCommand.load(deps.store, invoiceId);
  if (state.status !== 'raised' || state.sync === 'synced') return { position: 0n };
  const organisationRef = { id: organisation.organisationId, livemode: organisation.livemode };
  const record = (command: Parameters<typeof invoiceCommand>[2]) => invoiceCommand(deps, invoiceId, command, caller, organisationRef);
  const fail = (error: string) => record({ type: 'RecordInvoiceSyncFailed', invoiceId, error });

  const accounting = organisation.accounting;
  if (!accounting) return fail('No accounting system is connected to this organisation.');
  const invoice = state.invoice;
  const customer = await customerCommand.load(deps.store, invoice.customerId);
  if (customer.state.status === 'none' || !customer.state.accountingContactId) {
    return fail('The customer has no contact in the accounting system.');
  }
  try {
    const pushed = await deps.accounting.tenant(accounting.tenantId).createInvoice(
      {
        contactId: customer.state.accountingContactId,
        reference: invoice.reference,
        date: invoice.invoiceDate.slice(0, 10),
        dueDate: invoice.dueDate?.slice(0, 10) ?? null,
        currency: invoice.currency,
        status: 'draft',
        lines: invoice.lines.map((line) => ({
          description: [line.name, line.description].filter(Boolean).join(' — '),
          quantity: line.quantity,
          unitAmount: line.unitAmount,
          accountCode: (line.account === 'usage_revenue' ? accounting.usageRevenueAccount : accounting.revenueAccount) ?? '',
        })),
      },
      invoiceId,
    );
    return record({
      type: 'RecordInvoiceSynced',
      invoiceId,
      accountingInvoiceId: pushed.id,
      number: pushed.number,
      status: pushed.status,
      total: pushed.total,
      amountPaid: pushed.amountPaid,
      creditNoteAmount: pushed.amountCredited,
      sent: pushed.sentToContact,
    });
  } catch (error) {
    if (error instanceof AccountingRefused) return fail(error.message);
    // An outage (5xx, timeout, no connection) is not a refusal: the invoice stays pending for the retry worker.
    if (error instanceof AccountingUnavailable) return { position: 0n };
    throw error;
  }
};
