import { randomUUID } from 'node:crypto';
import { writeInGroup } from '../infra/sqlite/group-commit';
import type { SqliteDatabase } from '../infra/sqlite/open-database';
import { statementCache } from '../infra/sqlite/statement-cache';
import type {
  AccountingCreditNote,
  AccountingInvoice,
  Contact,
  DocumentStatus,
  LedgerAccount,
  Line,
  LineInput,
  NewContact,
  NewCreditNote,
  NewInvoice,
} from '../infra/accounting/port';
import { format, isDecimal, multiply, parse, percentOf } from './decimal';

export const TAX_PERCENT = 10n;

export const CHART_OF_ACCOUNTS: LedgerAccount[] = [
  { code: '200', name: 'Sales', type: 'revenue' },
  { code: '260', name: 'Other revenue', type: 'revenue' },
  { code: '270', name: 'Usage revenue', type: 'revenue' },
  { code: '400', name: 'Advertising', type: 'expense' },
  { code: '090', name: 'Bank', type: 'asset' },
];

/** A refusal the HTTP layer answers with a 4xx and `{ error: { code, message, field } }`. */
export class LedgerRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

type Kind = 'invoice' | 'credit_note';
type ContactRow = {
  id: string;
  contact_number: string | null;
  name: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  archived: number;
};

const toContact = (row: ContactRow): Contact => ({
  id: row.id,
  contactNumber: row.contact_number,
  name: row.name,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  archived: row.archived === 1,
});

/** The demonstration ledger's state and rules, one SQLite file; every change is one transaction. */
export class Ledger {
  /** Statements prepared once each, on first use. */
  private readonly sql: { prepare: SqliteDatabase['prepare'] };

  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date = () => new Date(),
  ) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS tenants (id TEXT PRIMARY KEY, name TEXT NOT NULL, next_invoice INTEGER NOT NULL, next_credit_note INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS contacts (
        id TEXT PRIMARY KEY, tenant TEXT NOT NULL, contact_number TEXT COLLATE NOCASE, name TEXT NOT NULL, name_key TEXT NOT NULL,
        first_name TEXT, last_name TEXT, email TEXT, archived INTEGER NOT NULL DEFAULT 0,
        UNIQUE (tenant, contact_number), UNIQUE (tenant, name_key)
      );
      CREATE TABLE IF NOT EXISTS documents (
        id TEXT PRIMARY KEY, tenant TEXT NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, updated_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS documents_updated ON documents (tenant, updated_at);
      CREATE TABLE IF NOT EXISTS idempotency (
        tenant TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL,
        PRIMARY KEY (tenant, key)
      );
    `);
    this.sql = statementCache(db);
  }

  /** Runs `work` as one transaction in the connection's group commit: settles once it is durable. */
  transaction<T>(work: () => T): Promise<T> {
    return writeInGroup(this.db, work);
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  // Tenants

  createTenant(name: string): { tenantId: string; name: string; accounts: LedgerAccount[] } {
    const tenantId = `demo_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    this.sql.prepare('INSERT INTO tenants (id, name, next_invoice, next_credit_note) VALUES (?, ?, 1, 1)').run(tenantId, name);
    return { tenantId, name, accounts: CHART_OF_ACCOUNTS };
  }

  requireTenant(tenantId: string): void {
    if (!this.sql.prepare('SELECT 1 FROM tenants WHERE id = ?').get(tenantId)) {
      throw new LedgerRefusal(404, 'tenant_not_found', `No demonstration organisation ${tenantId}.`);
    }
  }

  // Idempotency

  remembered(tenant: string, key: string, fingerprint: string): { status: number; body: unknown } | null {
    const row = this.sql
      .prepare<[string, string], { fingerprint: string; status: number; body: string }>(
        'SELECT fingerprint, status, body FROM idempotency WHERE tenant = ? AND key = ?',
      )
      .get(tenant, key);
    if (!row) return null;
    if (row.fingerprint !== fingerprint) {
      throw new LedgerRefusal(422, 'idempotency_key_reused', 'This Idempotency-Key was used for a different request.');
    }
    return { status: row.status, body: JSON.parse(row.body) as unknown };
  }

  remember(tenant: string, key: string, fingerprint: string, status: number, body: unknown): void {
    this.sql
      .prepare('INSERT INTO idempotency (tenant, key, fingerprint, status, body) VALUES (?, ?, ?, ?, ?)')
      .run(tenant, key, fingerprint, status, JSON.stringify(body));
  }

  // Contacts: numbers and names are unique per tenant, both compared without regard to case.

  findContacts(tenant: string, filter: { contactNumber?: string; name?: string }): Contact[] {
    const rows =
      filter.contactNumber !== undefined
        ? this.sql.prepare<[string, string], ContactRow>('SELECT * FROM contacts WHERE tenant = ? AND contact_number = ?').all(tenant, filter.contactNumber)
        : filter.name !== undefined
          ? this.sql.prepare<[string, string], ContactRow>('SELECT * FROM contacts WHERE tenant = ? AND name_key = ?').all(tenant, filter.name.trim().toLowerCase())
          : this.sql.prepare<[string], ContactRow>('SELECT * FROM contacts WHERE tenant = ? ORDER BY rowid').all(tenant);
    return rows.map(toContact);
  }

  contact(tenant: string, id: string): Contact {
    const row = this.sql.prepare<[string, string], ContactRow>('SELECT * FROM contacts WHERE tenant = ? AND id = ?').get(tenant, id);
    if (!row) throw new LedgerRefusal(404, 'not_found', `No contact ${id}.`);
    return toContact(row);
  }

  createContact(tenant: string, input: NewContact): Contact {
    if (!input.name?.trim()) throw new LedgerRefusal(400, 'validation_failed', 'A contact needs a name.', 'name');
    if (this.findContacts(tenant, { name: input.name }).length > 0) {
      throw new LedgerRefusal(409, 'contact_name_taken', `A contact named "${input.name}" already exists.`, 'name');
    }
    if (input.contactNumber && this.findContacts(tenant, { contactNumber: input.contactNumber }).length > 0) {
      throw new LedgerRefusal(409, 'contact_number_taken', `Contact number ${input.contactNumber} is in use.`, 'contactNumber');
    }
    const id = `ct_${randomUUID()}`;
    this.sql
      .prepare('INSERT INTO contacts (id, tenant, contact_number, name, name_key, first_name, last_name, email) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, tenant, input.contactNumber ?? null, input.name, input.name.trim().toLowerCase(), input.firstName ?? null, input.lastName ?? null, input.email ?? null);
    return this.contact(tenant, id);
  }

  archiveContact(tenant: string, id: string): Contact {
    this.contact(tenant, id);
    this.sql.prepare('UPDATE contacts SET archived = 1 WHERE tenant = ? AND id = ?').run(tenant, id);
    return this.contact(tenant, id);
  }

  // Documents

  private load<T>(tenant: string, kind: Kind, id: string): T {
    const row = this.sql
      .prepare<[string, string, string], { body: string }>('SELECT body FROM documents WHERE tenant = ? AND kind = ? AND id = ?')
      .get(tenant, kind, id);
    if (!row) throw new LedgerRefusal(404, 'not_found', `No ${kind.replace('_', ' ')} ${id}.`);
    return JSON.parse(row.body) as T;
  }

  private save(tenant: string, kind: Kind, doc: { id: string; updatedAt: string }): void {
    this.sql
      .prepare('INSERT INTO documents (id, tenant, kind, body, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at')
      .run(doc.id, tenant, kind, JSON.stringify(doc), doc.updatedAt);
  }

  private priced(lines: readonly LineInput[]): { lines: Line[]; subtotal: bigint; tax: bigint } {
    if (lines.length === 0) {
      throw new LedgerRefusal(400, 'validation_failed', 'A document needs at least one line.', 'lines');
    }
    const accounts = new Set(CHART_OF_ACCOUNTS.filter((a) => a.type === 'revenue').map((a) => a.code));
    let subtotal = 0n;
    const priced = lines.map((line, i) => {
      if (!accounts.has(line.accountCode)) {
        throw new LedgerRefusal(400, 'unknown_account', `Account code ${line.accountCode} is not a revenue account.`, `lines.${i}.accountCode`);
      }
      if (!isDecimal(line.quantity) || !isDecimal(line.unitAmount)) {
        throw new LedgerRefusal(400, 'validation_failed', 'Quantity and unit amount are decimals with at most 4 places.', `lines.${i}`);
      }
      const amount = multiply(parse(line.quantity), parse(line.unitAmount));
      subtotal += amount;
      return { ...line, lineAmount: format(amount) };
    });
    return { lines: priced, subtotal, tax: percentOf(subtotal, TAX_PERCENT) };
  }

  private usableContact(tenant: string, contactId: string): void {
    if (this.contact(tenant, contactId).archived) {
      throw new LedgerRefusal(409, 'contact_archived', 'The contact is archived and cannot be invoiced.', 'contactId');
    }
  }

  private nextNumber(tenant: string, kind: Kind): string {
    const column = kind === 'invoice' ? 'next_invoice' : 'next_credit_note';
    const row = this.sql.prepare<[string], { n: number }>(`SELECT ${column} AS n FROM tenants WHERE id = ?`).get(tenant)!;
    this.sql.prepare(`UPDATE tenants SET ${column} = ${column} + 1 WHERE id = ?`).run(tenant);
    return `${kind === 'invoice' ? 'INV' : 'CN'}-${String(row.n).padStart(4, '0')}`;
  }

  /** What an invoice and a credit note share: a usable contact, a number, priced lines, totals. */
  private newDocument(tenant: string, kind: Kind, input: NewCreditNote) {
    this.usableContact(tenant, input.contactId);
    const { lines, subtotal, tax } = this.priced(input.lines);
    const total = subtotal + tax;
    return {
      total,
      fields: {
        id: `${kind === 'invoice' ? 'ai' : 'acn'}_${randomUUID()}`,
        number: this.nextNumber(tenant, kind),
        contactId: input.contactId,
        reference: input.reference,
        date: input.date,
        currency: input.currency,
        status: input.status,
        lines,
        subtotal: format(subtotal),
        totalTax: format(tax),
        total: format(total),
        sentToContact: false,
        updatedAt: this.stamp(),
      },
    };
  }

  createInvoice(tenant: string, input: NewInvoice): AccountingInvoice {
    if (!['draft', 'awaiting_approval', 'approved'].includes(input.status)) {
      throw new LedgerRefusal(400, 'validation_failed', 'A new invoice is draft, awaiting_approval or approved.', 'status');
    }
    const { total, fields } = this.newDocument(tenant, 'invoice', input);
    const invoice: AccountingInvoice = {
      ...fields,
      dueDate: input.dueDate,
      amountDue: format(total),
      amountPaid: '0.0000',
      amountCredited: '0.0000',
    };
    this.save(tenant, 'invoice', invoice);
    return invoice;
  }

  invoice(tenant: string, id: string): AccountingInvoice {
    return this.load<AccountingInvoice>(tenant, 'invoice', id);
  }

  private changeInvoice(tenant: string, id: string, change: (invoice: AccountingInvoice) => Partial<AccountingInvoice>): AccountingInvoice {
    const invoice = this.invoice(tenant, id);
    const next = { ...invoice, ...change(invoice), updatedAt: this.stamp() };
    this.save(tenant, 'invoice', next);
    return next;
  }

  private refuseUnless(invoice: AccountingInvoice, allowed: DocumentStatus[], action: string): void {
    if (!allowed.includes(invoice.status)) {
      throw new LedgerRefusal(409, 'invalid_state', `Cannot ${action} invoice ${invoice.number}: it is ${invoice.status}.`);
    }
  }

  updateInvoiceLines(tenant: string, id: string, lines: readonly LineInput[]): AccountingInvoice {
    return this.changeInvoice(tenant, id, (invoice) => {
      this.refuseUnless(invoice, ['draft', 'awaiting_approval'], 'change the lines of');
      const priced = this.priced(lines);
      const total = priced.subtotal + priced.tax;
      return { lines: priced.lines, subtotal: format(priced.subtotal), totalTax: format(priced.tax), total: format(total), amountDue: format(total) };
    });
  }

  approveInvoice(tenant: string, id: string): AccountingInvoice {
    return this.changeInvoice(tenant, id, (invoice) => {
      this.refuseUnless(invoice, ['draft', 'awaiting_approval'], 'approve');
      return { status: 'approved' };
    });
  }

  voidInvoice(tenant: string, id: string): AccountingInvoice {
    return this.changeInvoice(tenant, id, (invoice) => {
      this.refuseUnless(invoice, ['approved'], 'void');
      if (parse(invoice.amountPaid) > 0n || parse(invoice.amountCredited) > 0n) {
        throw new LedgerRefusal(409, 'invalid_state', `Cannot void invoice ${invoice.number}: it has payments or credits.`);
      }
      return { status: 'voided', amountDue: '0.0000' };
    });
  }

  deleteInvoice(tenant: string, id: string): AccountingInvoice {
    return this.changeInvoice(tenant, id, (invoice) => {
      this.refuseUnless(invoice, ['draft', 'awaiting_approval'], 'delete');
      if (invoice.sentToContact) throw new LedgerRefusal(409, 'invalid_state', `Cannot delete invoice ${invoice.number}: it was sent.`);
      return { status: 'deleted', amountDue: '0.0000' };
    });
  }

  markSent(tenant: string, id: string): AccountingInvoice {
    return this.changeInvoice(tenant, id, () => ({ sentToContact: true }));
  }

  private settle(invoice: AccountingInvoice, paid: bigint, credited: bigint): Partial<AccountingInvoice> {
    const due = parse(invoice.total) - paid - credited;
    if (due < 0n) throw new LedgerRefusal(400, 'validation_failed', `The amount is more than the ${format(parse(invoice.amountDue))} due.`, 'amount');
    return { amountPaid: format(paid), amountCredited: format(credited), amountDue: format(due), status: due === 0n ? 'paid' : invoice.status };
  }

  recordPayment(tenant: string, invoiceId: string, amount: string): AccountingInvoice {
    if (!isDecimal(amount) || parse(amount) <= 0n) throw new LedgerRefusal(400, 'validation_failed', 'A payment is a positive amount.', 'amount');
    return this.changeInvoice(tenant, invoiceId, (invoice) => {
      this.refuseUnless(invoice, ['approved'], 'pay');
      return this.settle(invoice, parse(invoice.amountPaid) + parse(amount), parse(invoice.amountCredited));
    });
  }

  createCreditNote(tenant: string, input: NewCreditNote): AccountingCreditNote {
    const { total, fields } = this.newDocument(tenant, 'credit_note', input);
    const creditNote: AccountingCreditNote = { ...fields, remainingCredit: format(total), allocations: [] };
    this.save(tenant, 'credit_note', creditNote);
    return creditNote;
  }

  creditNote(tenant: string, id: string): AccountingCreditNote {
    return this.load<AccountingCreditNote>(tenant, 'credit_note', id);
  }

  allocate(tenant: string, creditNoteId: string, invoiceId: string, amount: string): AccountingCreditNote {
    const creditNote = this.creditNote(tenant, creditNoteId);
    if (!isDecimal(amount) || parse(amount) <= 0n) throw new LedgerRefusal(400, 'validation_failed', 'An allocation is a positive amount.', 'amount');
    if (creditNote.status !== 'approved') throw new LedgerRefusal(409, 'invalid_state', `Credit note ${creditNote.number} is ${creditNote.status}.`);
    if (parse(amount) > parse(creditNote.remainingCredit)) {
      throw new LedgerRefusal(400, 'validation_failed', `Only ${creditNote.remainingCredit} credit remains.`, 'amount');
    }
    this.changeInvoice(tenant, invoiceId, (invoice) => {
      this.refuseUnless(invoice, ['approved'], 'credit');
      if (invoice.contactId !== creditNote.contactId) throw new LedgerRefusal(409, 'invalid_state', 'The invoice belongs to another contact.');
      return this.settle(invoice, parse(invoice.amountPaid), parse(invoice.amountCredited) + parse(amount));
    });
    const remaining = parse(creditNote.remainingCredit) - parse(amount);
    const next: AccountingCreditNote = {
      ...creditNote,
      remainingCredit: format(remaining),
      status: remaining === 0n ? 'paid' : creditNote.status,
      allocations: [...creditNote.allocations, { invoiceId, amount: format(parse(amount)), date: this.stamp().slice(0, 10) }],
      updatedAt: this.stamp(),
    };
    this.save(tenant, 'credit_note', next);
    return next;
  }

  updatedSince(tenant: string, since: string): { invoices: AccountingInvoice[]; creditNotes: AccountingCreditNote[] } {
    const rows = this.sql
      .prepare<[string, string], { kind: Kind; body: string }>('SELECT kind, body FROM documents WHERE tenant = ? AND updated_at > ? ORDER BY updated_at')
      .all(tenant, since);
    return {
      invoices: rows.filter((r) => r.kind === 'invoice').map((r) => JSON.parse(r.body) as AccountingInvoice),
      creditNotes: rows.filter((r) => r.kind === 'credit_note').map((r) => JSON.parse(r.body) as AccountingCreditNote),
    };
  }
}
