import type { CreditNoteCommand } from '../../domain/credit-note/decider';
import type { CreditNoteEvent, CreditNoteLine } from '../../domain/credit-note/events';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { formatMoney, min, parseMoney } from '../../domain/pricing/money';
import { type AccountingCreditNote, AccountingRefused, type AccountingSystem, AccountingUnavailable } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { creditNoteCommand } from '../plumbing/credit-note-command';
import { customerCommand } from '../plumbing/customer-command';
import type { CommandDeps } from '../plumbing/deps';
import { invoiceCommand } from '../plumbing/invoice-command';
import { type Caller, refOf } from '../plumbing/metadata';
import { accountingInvoice } from './accounting-invoice';
import { accountingLines, type DocumentLine } from './accounting-lines';
import { contactOnFirstInvoice } from './contact-on-first-invoice';
import { NOTHING_TO_DO, type PushOutcome, pushDocument } from './push-document';

type Deps = CommandDeps & { accounting: AccountingSystem };
type RaisedCreditNote = Extract<Awaited<ReturnType<typeof creditNoteCommand.load>>['state'], { status: 'raised' }>;

/** A credit note's line as the accounting system takes it: one unit of what it credits, to revenue. */
const asDocumentLine = (line: CreditNoteLine): DocumentLine => ({ name: line.name, description: line.description, quantity: '1', unitAmount: line.amount, account: 'revenue' });

/**
 * Sends a raised credit note to the accounting system (approved, so its credit can be applied), keyed
 * by its own id so a retry never makes a second one; allocates it to the invoice it reduces where the
 * accounting system allows (that invoice approved and owing); then records both in one append, so a
 * reader never sees it synced without the allocation made with it. A refused allocation leaves the
 * credit unallocated, never fails the push. Outcomes as for an invoice (`pushDocument`).
 */
export const pushCreditNote = async (deps: Deps, caller: Caller, organisation: OpenOrganisation, creditNoteId: string): Promise<PushOutcome> => {
  const loaded = await creditNoteCommand.load(deps.store, creditNoteId);
  const { state } = loaded;
  if (state.status !== 'raised' || state.sync === 'failed') return NOTHING_TO_DO;
  const record = (command: CreditNoteCommand) => creditNoteCommand(deps, creditNoteId, command, caller, refOf(organisation), undefined, loaded);

  if (state.sync === 'synced') {
    // Pushed by an earlier run that stopped before allocating: allocate now.
    const allocation = state.accountingCreditNoteId ? await allocationFor(deps, organisation, state, state.accountingCreditNoteId, state.remainingCredit) : null;
    if (!allocation) return NOTHING_TO_DO;
    return { ...NOTHING_TO_DO, position: (await record({ type: 'RecordCreditNoteAllocated', ...allocation })).position };
  }

  const note = state.creditNote;
  return pushDocument<AccountingCreditNote, CreditNoteCommand>(deps, organisation, {
    contactId: async () => {
      const customer = await customerCommand.load(deps.store, note.customerId);
      return customer.state.status === 'none' ? null : contactOnFirstInvoice(deps, caller, organisation, customer.state);
    },
    create: (tenant, contactId, accounting) =>
      tenant.createCreditNote(
        {
          contactId,
          reference: note.reference,
          date: note.creditNoteDate.slice(0, 10),
          currency: note.currency,
          status: 'approved',
          lines: accountingLines(note.lines.map(asDocumentLine), accounting),
        },
        creditNoteId,
      ),
    synced: async (pushed) => {
      const allocation = await allocationFor(deps, organisation, state, pushed.id, pushed.remainingCredit);
      return {
        type: 'RecordCreditNoteSynced',
        creditNoteId,
        accountingCreditNoteId: pushed.id,
        number: pushed.number,
        status: pushed.status,
        total: pushed.total,
        remainingCredit: pushed.remainingCredit,
        sent: pushed.sentToContact,
        ...(allocation ? { allocation } : {}),
      };
    },
    failed: (error) => ({ type: 'RecordCreditNoteSyncFailed', creditNoteId, error }),
    record,
  });
};

/** Allocates the credit to the invoice it reduces, keyed by a derived id; what was allocated, or null where it was not allowed. */
const allocationFor = async (
  deps: Deps,
  organisation: OpenOrganisation,
  state: RaisedCreditNote,
  accountingCreditNoteId: string,
  remainingCredit: string,
): Promise<CreditNoteEvent<'CreditNoteAllocated'>['data'] | null> => {
  const invoiceId = state.creditNote.invoiceId;
  const accounting = organisation.accounting;
  if (!invoiceId || !accounting || state.allocatedTo.includes(invoiceId)) return null;
  const invoice = await invoiceCommand.load(deps.store, invoiceId);
  if (invoice.state.status !== 'raised') return null;
  const tenant = deps.accounting.tenant(accounting.tenantId);
  try {
    // Only an invoice the accounting organisation in use holds can take its credit.
    const ledgerInvoice = await accountingInvoice(deps, organisation, invoice.state);
    if (ledgerInvoice?.status !== 'approved') return null;
    const amount = min(parseMoney(ledgerInvoice.amountDue), parseMoney(remainingCredit));
    if (amount <= 0n) return null;
    const allocationId = derivedId('creditNote', state.creditNote.creditNoteId, 'allocation', invoiceId);
    const allocated = await tenant.allocateCreditNote(accountingCreditNoteId, ledgerInvoice.id, formatMoney(amount), allocationId);
    return {
      creditNoteId: state.creditNote.creditNoteId,
      allocationId,
      invoiceId,
      amount: formatMoney(amount),
      date: deps.clocks.forOrganisation(organisation.organisationId).now().toISOString(),
      remainingCredit: allocated.remainingCredit,
      status: allocated.status,
    };
  } catch (error) {
    // Where the accounting system does not allow it (or is down), the credit stays unallocated.
    if (error instanceof AccountingRefused || error instanceof AccountingUnavailable) return null;
    throw error;
  }
};
