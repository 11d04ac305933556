import type { OpenOrganisation } from '../../domain/organisation/state';
import type { CreditNoteAllocated } from '../../domain/credit-note/events';
import { formatMoney, min, parseMoney } from '../../domain/pricing/money';
import { AccountingRefused, type AccountingSystem, AccountingUnavailable } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { contactOnFirstInvoice } from '../customer/contact-on-first-invoice';
import { accountingInvoice } from '../invoice/accounting-invoice';
import { invoiceCommand } from '../invoice/invoice-command';
import type { PushOutcome } from '../invoice/push-invoice';
import type { Caller } from '../metadata';
import { creditNoteCommand } from './credit-note-command';

type Deps = CommandDeps & { accounting: AccountingSystem };
type RaisedCreditNote = Extract<Awaited<ReturnType<typeof creditNoteCommand.load>>['state'], { status: 'raised' }>;

/**
 * Sends a raised credit note to the accounting system (approved, so its credit can be applied), keyed
 * by its own id so a retry never makes a second one; allocates it to the invoice it reduces where the
 * accounting system allows (that invoice approved and owing); then records both in one append, so a
 * reader never sees it synced without the allocation made with it. A refused allocation leaves the
 * credit unallocated, never fails the push. Outcomes as for an invoice: a refusal is recorded as
 * failed, an outage records nothing (the worker tries again).
 */
export const pushCreditNote = async (deps: Deps, caller: Caller, organisation: OpenOrganisation, creditNoteId: string): Promise<PushOutcome> => {
  const { state } = await creditNoteCommand.load(deps.store, creditNoteId);
  if (state.status !== 'raised' || state.sync === 'failed') return { position: 0n, outcome: 'nothing_to_do', error: null };
  const ref = { id: organisation.organisationId, livemode: organisation.livemode };
  const record = (command: Parameters<typeof creditNoteCommand>[2]) => creditNoteCommand(deps, creditNoteId, command, caller, ref);

  if (state.sync === 'synced') {
    // Pushed by an earlier run that stopped before allocating: allocate now.
    const allocation = state.accountingCreditNoteId ? await allocationFor(deps, organisation, state, state.accountingCreditNoteId, state.remainingCredit) : null;
    if (!allocation) return { position: 0n, outcome: 'nothing_to_do', error: null };
    return { position: (await record({ type: 'RecordCreditNoteAllocated', ...allocation })).position, outcome: 'nothing_to_do', error: null };
  }

  const fail = async (error: string): Promise<PushOutcome> => ({
    position: (await record({ type: 'RecordCreditNoteSyncFailed', creditNoteId, error })).position,
    outcome: 'refused',
    error,
  });
  const accounting = organisation.accounting;
  if (!accounting) return fail('No accounting system is connected to this organisation.');
  const note = state.creditNote;
  try {
    const contactId = await contactOnFirstInvoice(deps, caller, organisation, note.customerId);
    if (contactId === null) return fail('The customer has no contact in the accounting system.');
    const pushed = await deps.accounting.tenant(accounting.tenantId).createCreditNote(
      {
        contactId,
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
    const allocation = await allocationFor(deps, organisation, state, pushed.id, pushed.remainingCredit);
    const synced = await record({
      type: 'RecordCreditNoteSynced',
      creditNoteId,
      accountingCreditNoteId: pushed.id,
      number: pushed.number,
      status: pushed.status,
      total: pushed.total,
      remainingCredit: pushed.remainingCredit,
      sent: pushed.sentToContact,
      ...(allocation ? { allocation } : {}),
    });
    return { position: synced.position, outcome: 'synced', error: null };
  } catch (error) {
    if (error instanceof AccountingRefused) return fail(error.message);
    if (error instanceof AccountingUnavailable) return { position: 0n, outcome: 'unavailable', error: error.message };
    throw error;
  }
};

/** Allocates the credit to the invoice it reduces, keyed by a derived id; what was allocated, or null where it was not allowed. */
const allocationFor = async (
  deps: Deps,
  organisation: OpenOrganisation,
  state: RaisedCreditNote,
  accountingCreditNoteId: string,
  remainingCredit: string,
): Promise<CreditNoteAllocated['data'] | null> => {
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
