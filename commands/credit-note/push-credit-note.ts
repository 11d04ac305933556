import type { OpenOrganisation } from '../../domain/organisation/decider';
import { formatMoney, min, parseMoney } from '../../domain/pricing/money';
import { AccountingRefused, type AccountingSystem, AccountingUnavailable } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { customerCommand } from '../customer/customer-command';
import { invoiceCommand } from '../invoice/invoice-command';
import type { Caller } from '../metadata';
import { latestPosition } from '../positions';
import { creditNoteCommand } from './credit-note-command';

type Deps = CommandDeps & { accounting: AccountingSystem };

/**
 * Sends a raised credit note to the accounting system (approved, so its credit can be applied), keyed
 * by its own id so a retry never makes a second one, and records the outcome; then allocates it to the
 * invoice it reduces where the accounting system allows (that invoice approved and owing), recording
 * the allocation. A refused allocation leaves the credit unallocated, never fails the request.
 */
export const pushCreditNote = async (deps: Deps, caller: Caller, organisation: OpenOrganisation, creditNoteId: string) => {
  const loaded = await creditNoteCommand.load(deps.store, creditNoteId);
  if (loaded.state.status !== 'raised') return { position: 0n };
  const ref = { id: organisation.organisationId, livemode: organisation.livemode };
  const record = (command: Parameters<typeof creditNoteCommand>[2]) => creditNoteCommand(deps, creditNoteId, command, caller, ref);
  let state = loaded.state;
  let position = 0n;

  if (state.sync !== 'synced') {
    const fail = async (error: string) => ({ position: (await record({ type: 'RecordCreditNoteSyncFailed', creditNoteId, error })).position });
    const accounting = organisation.accounting;
    if (!accounting) return fail('No accounting system is connected to this organisation.');
    const note = state.creditNote;
    const customer = await customerCommand.load(deps.store, note.customerId);
    if (customer.state.status === 'none' || !customer.state.accountingContactId) return fail('The customer has no contact in the accounting system.');
    try {
      const pushed = await deps.accounting.tenant(accounting.tenantId).createCreditNote(
        {
          contactId: customer.state.accountingContactId,
          reference: note.reference,
          date: note.creditNoteDate.slice(0, 10),
          currency: note.currency,
          status: 'approved',
          lines: note.lines.map((line) => ({
            description: [line.name, line.description].filter(Boolean).join(' — '),
            quantity: '1',
            unitAmount: line.amount,
            accountCode: accounting.revenueAccount ?? '',
          })),
        },
        creditNoteId,
      );
      const synced = await record({
        type: 'RecordCreditNoteSynced',
        creditNoteId,
        accountingCreditNoteId: pushed.id,
        number: pushed.number,
        status: pushed.status,
        total: pushed.total,
        remainingCredit: pushed.remainingCredit,
        sent: pushed.sentToContact,
      });
      position = synced.position;
      if (synced.state.status === 'raised') state = synced.state;
    } catch (error) {
      if (error instanceof AccountingRefused) return fail(error.message);
      // An outage is not a refusal: the credit note stays pending, as an invoice does.
      if (error instanceof AccountingUnavailable) return { position };
      throw error;
    }
  }
  return { position: latestPosition(position, await allocate(deps, organisation, state, record)) };
};

const allocate = async (
  deps: Deps,
  organisation: OpenOrganisation,
  state: Extract<Awaited<ReturnType<typeof creditNoteCommand.load>>['state'], { status: 'raised' }>,
  record: (command: Parameters<typeof creditNoteCommand>[2]) => ReturnType<typeof creditNoteCommand>,
): Promise<bigint> => {
  const invoiceId = state.creditNote.invoiceId;
  const accounting = organisation.accounting;
  if (!invoiceId || !accounting || !state.accountingCreditNoteId || state.allocatedTo.includes(invoiceId)) return 0n;
  const invoice = await invoiceCommand.load(deps.store, invoiceId);
  if (invoice.state.status !== 'raised' || !invoice.state.accountingInvoiceId) return 0n;
  const tenant = deps.accounting.tenant(accounting.tenantId);
  try {
    const ledgerInvoice = await tenant.getInvoice(invoice.state.accountingInvoiceId);
    if (ledgerInvoice.status !== 'approved') return 0n;
    const amount = min(parseMoney(ledgerInvoice.amountDue), parseMoney(state.remainingCredit));
    if (amount <= 0n) return 0n;
    const allocationId = derivedId('creditNote', state.creditNote.creditNoteId, 'allocation', invoiceId);
    const allocated = await tenant.allocateCreditNote(state.accountingCreditNoteId, ledgerInvoice.id, formatMoney(amount), allocationId);
    const recorded = await record({
      type: 'RecordCreditNoteAllocated',
      creditNoteId: state.creditNote.creditNoteId,
      allocationId,
      invoiceId,
      amount: formatMoney(amount),
      date: deps.clocks.forOrganisation(organisation.organisationId).now().toISOString(),
      remainingCredit: allocated.remainingCredit,
      status: allocated.status,
    });
    return recorded.position;
  } catch (error) {
    // Where the accounting system does not allow it (or is down), the credit stays unallocated.
    if (error instanceof AccountingRefused || error instanceof AccountingUnavailable) return 0n;
    throw error;
  }
};
