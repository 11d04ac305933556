/** Amounts cross this port as 4-place decimal strings ('12.3400'); quantities as decimal strings. */
export type Amount = string;

export type DocumentStatus = 'draft' | 'awaiting_approval' | 'approved' | 'paid' | 'voided' | 'deleted';

export type LedgerAccount = Readonly<{ code: string; name: string; type: 'revenue' | 'expense' | 'asset' }>;

export type Contact = Readonly<{
  id: string;
  contactNumber: string | null;
  name: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  archived: boolean;
}>;

export type NewContact = Readonly<{
  name: string;
  contactNumber: string;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}>;

export type LineInput = Readonly<{ description: string; quantity: string; unitAmount: Amount; accountCode: string }>;

export type Line = LineInput & Readonly<{ lineAmount: Amount }>;

export type NewInvoice = Readonly<{
  contactId: string;
  reference: string | null;
  date: string;
  dueDate: string | null;
  currency: string;
  status: 'draft' | 'awaiting_approval' | 'approved';
  lines: readonly LineInput[];
}>;

type Totals = Readonly<{ subtotal: Amount; totalTax: Amount; total: Amount; updatedAt: string; sentToContact: boolean }>;

export type AccountingInvoice = Totals &
  Readonly<{
    id: string;
    number: string;
    contactId: string;
    reference: string | null;
    date: string;
    dueDate: string | null;
    currency: string;
    status: DocumentStatus;
    lines: readonly Line[];
    amountDue: Amount;
    amountPaid: Amount;
    amountCredited: Amount;
  }>;

export type NewCreditNote = Omit<NewInvoice, 'dueDate'>;

export type AccountingCreditNote = Totals &
  Readonly<{
    id: string;
    number: string;
    contactId: string;
    reference: string | null;
    date: string;
    currency: string;
    status: DocumentStatus;
    lines: readonly Line[];
    remainingCredit: Amount;
    allocations: readonly { invoiceId: string; amount: Amount; date: string }[];
  }>;

/** One demonstration organisation (tenant) of the accounting system. */
export interface AccountingTenant {
  readonly tenantId: string;
  findContactByNumber(contactNumber: string): Promise<Contact | null>;
  findContactByName(name: string): Promise<Contact | null>;
  createContact(contact: NewContact, idempotencyKey: string): Promise<Contact>;
  createInvoice(invoice: NewInvoice, idempotencyKey: string): Promise<AccountingInvoice>;
  getInvoice(id: string): Promise<AccountingInvoice>;
  updateInvoiceLines(id: string, lines: readonly LineInput[]): Promise<AccountingInvoice>;
  approveInvoice(id: string): Promise<AccountingInvoice>;
  voidInvoice(id: string): Promise<AccountingInvoice>;
  deleteInvoice(id: string): Promise<AccountingInvoice>;
  recordPayment(invoiceId: string, amount: Amount, date: string, idempotencyKey: string): Promise<AccountingInvoice>;
  createCreditNote(creditNote: NewCreditNote, idempotencyKey: string): Promise<AccountingCreditNote>;
  allocateCreditNote(creditNoteId: string, invoiceId: string, amount: Amount, idempotencyKey: string): Promise<AccountingCreditNote>;
  listUpdatedSince(since: string): Promise<{ invoices: AccountingInvoice[]; creditNotes: AccountingCreditNote[] }>;
}

export interface AccountingSystem {
  /** Creates (or, for the same key, finds again) a demonstration organisation with its chart of accounts. */
  connect(label: string, idempotencyKey: string): Promise<{ tenantId: string; name: string; accounts: LedgerAccount[] }>;
  tenant(tenantId: string): AccountingTenant;
}

/** The accounting system said no (a 4xx); `message` is its own words, kept for `sync_error`. */
export class AccountingRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AccountingRefused';
  }
}

/** The accounting system failed or did not answer in time, after retries. */
export class AccountingUnavailable extends Error {
  override name = 'AccountingUnavailable';
}
