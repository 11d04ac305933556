import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startDemoAccountingServer } from '../../demo/start';
import { startDemoAccountingThread } from '../../demo/start-thread';
import { httpAccountingSystem } from '../../infra/accounting/http-client';
import { AccountingRefused, type AccountingSystem, type AccountingTenant, AccountingUnavailable } from '../../infra/accounting/port';
import { tempDir } from '../support/test-service';

type Started = { url: string; close(): Promise<void> };

/**
 * The accounting port, through the HTTP client, against the demonstration server over real HTTP:
 * on the caller's own loop (`npm run accounting`) and on a thread of its own (the service's default).
 */
describe.each<[string, (options: { port: number; dbPath: string }) => Promise<Started>]>([
  ["on the caller's loop", startDemoAccountingServer],
  ['on its own thread', startDemoAccountingThread],
])('Accounting contract: HTTP client against the demonstration server %s', (_where, startServer) => {
  const dbPath = join(tempDir('accounting'), 'demo-accounting.sqlite');
  let server: Started;
  let system: AccountingSystem;
  let ledger: AccountingTenant;
  let n = 0;
  const key = (label: string) => `${label}-${++n}-${Date.now()}`;
  const control = (path: string, body: object = {}) =>
    fetch(`${server.url}/control${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const fault = (body: object) => control('/faults', body);
  const contact = (name: string, contactNumber: string) => ledger.createContact({ name, contactNumber, email: `${contactNumber}@example.com` }, key('ct'));
  const line = { description: 'Seats', quantity: '3', unitAmount: '10.3333', accountCode: '200' };
  const invoice = (contactId: string, status: 'draft' | 'approved' = 'approved') =>
    ledger.createInvoice({ contactId, reference: 'REF', date: '2026-01-01', dueDate: '2026-01-15', currency: 'GBP', status, lines: [line] }, key('inv'));

  beforeAll(async () => {
    server = await startServer({ port: 0, dbPath });
    system = httpAccountingSystem({ baseUrl: server.url, timeoutMs: 300, retries: 2, backoffMs: 5 });
    ledger = system.tenant((await system.connect('Contract tests', key('connect'))).tenantId);
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    await fetch(`${server.url}/control/faults`, { method: 'DELETE' });
  });

  it('connects a demonstration organisation with a chart of accounts', async () => {
    const connected = await system.connect('Another', key('connect'));
    expect(connected.tenantId).toMatch(/^demo_/);
    expect(connected.accounts.map((a) => a.code)).toEqual(expect.arrayContaining(['200', '260', '270']));
  });

  it('keeps contact numbers and names unique, names case-insensitively', async () => {
    const created = await contact('Unique Ltd', 'U-1');
    expect(created).toMatchObject({ name: 'Unique Ltd', contactNumber: 'U-1', archived: false });
    expect(await ledger.findContactByNumber('U-1')).toEqual(created);
    expect(await ledger.findContactByName('unique LTD')).toEqual(created);
    await expect(contact('UNIQUE ltd', 'U-2')).rejects.toMatchObject({ code: 'contact_name_taken' });
    await expect(contact('Other name', 'U-1')).rejects.toMatchObject({ code: 'contact_number_taken' });
    await expect(contact('Other name', 'u-1')).rejects.toMatchObject({ code: 'contact_number_taken' });
    expect(await ledger.findContactByNumber('u-1')).toEqual(created);
    expect(await ledger.findContactByNumber('U-2')).toBeNull();
  });

  it('computes lines and 10% tax on its side, numbers invoices, and refuses an archived contact', async () => {
    const { id } = await contact('Taxed Ltd', 'T-1');
    const created = await invoice(id);
    // 3 × 10.3333 = 30.9999; tax 10% = 3.09999 → 3.1000; total 34.0999
    expect(created).toMatchObject({ subtotal: '30.9999', totalTax: '3.1000', total: '34.0999', amountDue: '34.0999', status: 'approved' });
    expect(created.number).toMatch(/^INV-\d{4}$/);
    expect(created.lines[0]!.lineAmount).toBe('30.9999');
    expect(await ledger.getInvoice(created.id)).toEqual(created);
    await control(`/tenants/${ledger.tenantId}/contacts/${id}/archive`);
    await expect(invoice(id)).rejects.toMatchObject({ code: 'contact_archived' });
  });

  it('runs the invoice lifecycle and refuses every move the ledger forbids', async () => {
    const { id } = await contact('Lifecycle Ltd', 'L-1');
    const draft = await invoice(id, 'draft');
    const edited = await ledger.updateInvoiceLines(draft.id, [{ ...line, quantity: '1', unitAmount: '5' }]);
    expect(edited.total).toBe('5.5000');
    await expect(ledger.voidInvoice(draft.id)).rejects.toMatchObject({ code: 'invalid_state' });
    const approved = await ledger.approveInvoice(draft.id);
    expect(approved.status).toBe('approved');
    await expect(ledger.updateInvoiceLines(draft.id, [line])).rejects.toMatchObject({ code: 'invalid_state' });
    await expect(ledger.deleteInvoice(draft.id)).rejects.toMatchObject({ code: 'invalid_state' });
    expect((await ledger.voidInvoice(draft.id)).status).toBe('voided');

    const paidInPart = await invoice(id);
    const partly = await ledger.recordPayment(paidInPart.id, '10.0000', '2026-01-05', key('pay'));
    expect(partly).toMatchObject({ amountPaid: '10.0000', amountDue: '24.0999', status: 'approved' });
    await expect(ledger.voidInvoice(paidInPart.id)).rejects.toMatchObject({ code: 'invalid_state' });
    expect((await ledger.recordPayment(paidInPart.id, '24.0999', '2026-01-06', key('pay'))).status).toBe('paid');

    const unsent = await invoice(id, 'draft');
    expect((await ledger.deleteInvoice(unsent.id)).status).toBe('deleted');
    const sent = await invoice(id, 'draft');
    await control(`/tenants/${ledger.tenantId}/invoices/${sent.id}/send`);
    await expect(ledger.deleteInvoice(sent.id)).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('allocates a credit note to an invoice, reducing what is due', async () => {
    const { id } = await contact('Credit Ltd', 'C-1');
    const target = await invoice(id);
    const creditNote = await ledger.createCreditNote(
      { contactId: id, reference: 'CR', date: '2026-01-02', currency: 'GBP', status: 'approved', lines: [{ ...line, quantity: '1' }] },
      key('cn'),
    );
    // 10.3333 + 10% tax (1.0333) = 11.3666
    expect(creditNote).toMatchObject({ total: '11.3666', remainingCredit: '11.3666' });
    expect(creditNote.number).toMatch(/^CN-\d{4}$/);
    const allocated = await ledger.allocateCreditNote(creditNote.id, target.id, '11.3666', key('alloc'));
    expect(allocated).toMatchObject({ remainingCredit: '0.0000', allocations: [expect.objectContaining({ invoiceId: target.id, amount: '11.3666' })] });
    expect(await ledger.getInvoice(target.id)).toMatchObject({ amountCredited: '11.3666', amountDue: '22.7333' });
    await expect(ledger.allocateCreditNote(creditNote.id, target.id, '1', key('alloc'))).rejects.toBeInstanceOf(AccountingRefused);
  });

  it('lists what changed since a moment, for polling', async () => {
    const { id } = await contact('Poll Ltd', 'P-1');
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = await invoice(id);
    const { invoices } = await ledger.listUpdatedSince(before);
    expect(invoices.map((i) => i.id)).toContain(changed.id);
    const later = await ledger.listUpdatedSince(new Date(Date.now() + 1000).toISOString());
    expect(later.invoices).toEqual([]);
  });

  it('refuses an unknown account code', async () => {
    const { id } = await contact('Accounts Ltd', 'A-1');
    await expect(
      ledger.createInvoice({ contactId: id, reference: null, date: '2026-01-01', dueDate: null, currency: 'GBP', status: 'draft', lines: [{ ...line, accountCode: '999' }] }, key('inv')),
    ).rejects.toMatchObject({ code: 'unknown_account' });
  });

  it('keeps the refusal message of an injected refusal and does not retry it', async () => {
    await fault({ kind: 'refuse', pathPrefix: `/tenants/${ledger.tenantId}/contacts`, method: 'POST', count: 1, status: 422, code: 'validation_failed', message: 'Email is not valid' });
    await expect(contact('Refused Ltd', 'R-1')).rejects.toMatchObject({ code: 'validation_failed', message: 'Email is not valid' });
    expect((await contact('Refused Ltd', 'R-1')).name).toBe('Refused Ltd');
  });

  it('retries a 5xx and succeeds; a persistent 5xx becomes AccountingUnavailable', async () => {
    await fault({ kind: '5xx', pathPrefix: `/tenants/${ledger.tenantId}/contacts`, method: 'POST', count: 2 });
    expect((await contact('Flaky Ltd', 'F-1')).contactNumber).toBe('F-1');
    await fault({ kind: '5xx', pathPrefix: `/tenants/${ledger.tenantId}/contacts`, method: 'POST', count: 10 });
    await expect(contact('Down Ltd', 'D-1')).rejects.toBeInstanceOf(AccountingUnavailable);
  });

  it('creates exactly one document when the answer is lost after the commit', async () => {
    const { id } = await contact('Once Ltd', 'O-1');
    const before = (await ledger.listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices.length;
    await fault({ kind: '5xx', pathPrefix: `/tenants/${ledger.tenantId}/invoices`, method: 'POST', count: 1, afterCommit: true });
    const created = await invoice(id);
    const after = (await ledger.listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices;
    expect(after).toHaveLength(before + 1);
    expect(after.map((i) => i.id)).toContain(created.id);
  });

  it('times out a slow answer, retries, and still makes one document', async () => {
    const { id } = await contact('Slow Ltd', 'S-1');
    const before = (await ledger.listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices.length;
    await fault({ kind: 'slow', pathPrefix: `/tenants/${ledger.tenantId}/invoices`, method: 'POST', count: 1, delayMs: 500 });
    await invoice(id);
    // The slow first attempt commits after the client gave up; the retry found it by its key.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await ledger.listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices).toHaveLength(before + 1);
  });

  it('keeps demonstration organisations apart', async () => {
    const other = system.tenant((await system.connect('Separate', key('connect'))).tenantId);
    await contact('Mine Ltd', 'M-1');
    expect(await other.findContactByNumber('M-1')).toBeNull();
    expect(await other.findContactByName('Mine Ltd')).toBeNull();
    expect((await other.listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices).toEqual([]);
    expect((await other.createContact({ name: 'Mine Ltd', contactNumber: 'M-1' }, key('ct'))).name).toBe('Mine Ltd');
  });

  it('keeps its state across a restart', async () => {
    const kept = await contact('Durable Ltd', 'K-1');
    await server.close();
    server = await startServer({ port: 0, dbPath });
    system = httpAccountingSystem({ baseUrl: server.url, timeoutMs: 300, retries: 2, backoffMs: 5 });
    ledger = system.tenant(ledger.tenantId);
    expect(await ledger.findContactByNumber('K-1')).toEqual(kept);
  });
});

describe('The demonstration accounting system on its own thread', () => {
  const dbPath = () => join(tempDir('accounting-thread'), 'demo-accounting.sqlite');
  const freePort = async (): Promise<{ port: number; server: Server }> => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, server };
  };

  it("answers while the caller's event loop is blocked", async () => {
    const thread = await startDemoAccountingThread({ port: 0, dbPath: dbPath() });
    try {
      // spawnSync blocks this loop until the other process has its answer: only another loop can give it.
      const asked = spawnSync(process.execPath, ['-e', `fetch('${thread.url}/tenants/demo_none/contacts').then((r) => process.stdout.write(String(r.status)))`], {
        encoding: 'utf8',
        timeout: 15_000,
      });
      expect(asked.stdout).toBe('404');
    } finally {
      await thread.close();
    }
  });

  it('refuses to start when its port is taken, and says why', async () => {
    const taken = await freePort();
    try {
      await expect(startDemoAccountingThread({ port: taken.port, dbPath: dbPath() })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      taken.server.close();
    }
  });

  it('is unavailable to the client when nothing answers: no connection, or no answer in time', async () => {
    const closed = await freePort();
    closed.server.close();
    const nobody = httpAccountingSystem({ baseUrl: `http://127.0.0.1:${closed.port}`, timeoutMs: 300, retries: 1, backoffMs: 5 });
    await expect(nobody.connect('Nobody', 'k-nobody')).rejects.toThrow(new AccountingUnavailable('The accounting system is unavailable: could not connect.'));

    const thread = await startDemoAccountingThread({ port: 0, dbPath: dbPath() });
    try {
      const slow = httpAccountingSystem({ baseUrl: thread.url, timeoutMs: 200, retries: 1, backoffMs: 5 });
      await fetch(`${thread.url}/control/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'slow', pathPrefix: '/connections', count: 2, delayMs: 400 }),
      });
      await expect(slow.connect('Slow', 'k-slow')).rejects.toThrow(new AccountingUnavailable('The accounting system is unavailable: no answer within 200 ms.'));
    } finally {
      await thread.close();
    }
  });
});
