import request from 'supertest';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { until } from '../support/until';

describe('status poller: invoice statuses follow the accounting system', () => {
  let service: TestService;
  let tenantId: string;
  let auth: { Authorization: string };
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('poller'), { workers: { poller: { intervalSeconds: 0.3 } } });
    const orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    tenantId = await connectAccounting(service, orgId);
    await defineCatalogue(service, orgId);
    auth = (await createKey(service, orgId, ['subscriptions:write', 'invoices:read', 'credit_notes:read', 'customers:write'])).auth;
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Customer One' });
  });
  afterAll(() => service.close());

  const raise = async () => {
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `poll-${++n}`).send({ customer_code: 'C1', plan_code: 'flat' });
    expect(created.body.invoice.accounting.sync_status).toBe('synced');
    return created.body.invoice as { id: string; total: string; accounting: { invoice_id: string } };
  };
  const invoice = async (id: string) => (await request(service.app).get(`/v1/invoices/${id}`).set(auth)).body;
  const observations = async (id: string) =>
    (await service.services.store.readStream(`invoice-${id}`)).filter((event) => event.type === 'InvoiceStatusObserved').map((event) => event.data as { status: string; sent: boolean; amountPaid: string; total: string });
  const control = (invoiceId: string, action: string, body: object = {}) => accountingControl(service, `/tenants/${tenantId}/invoices/${invoiceId}/${action}`, body);

  it('sees a payment made in the demonstration accounting system and records it once', async () => {
    const raised = await raise();
    expect((await control(raised.accounting.invoice_id, 'approve')).status).toBe(200);
    await until('the approval is seen', async () => (await invoice(raised.id)).status === 'approved');
    expect((await control(raised.accounting.invoice_id, 'pay')).status).toBe(200);
    const paid = await until('the payment is seen', async () => {
      const current = await invoice(raised.id);
      return current.status === 'paid' && current;
    });
    expect(paid).toMatchObject({ status: 'paid', amount_paid: paid.total, accounting: { sync_status: 'synced' } });
    // Several more polls see the same documents again: nothing more is recorded.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await observations(raised.id)).map((o) => o.status)).toEqual(['approved', 'paid']);
  });

  it('follows a credit note pushed by the worker: credit applied in the accounting system is recorded once', async () => {
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `poll-${++n}`).send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
    // 5 → 4 seats for the whole period: a credit of one seat, 10.0000 (11.0000 with tax); the invoice is a draft, so nothing is allocated yet.
    const down = await request(service.app).post(`/v1/subscriptions/${created.body.id}/units`).set(auth).send({ units: 4, prorate: true, effective_date: created.body.start_date });
    const note = down.body.change.credit_note;
    expect(note).toMatchObject({ subtotal: '10.0000', total: '11.0000', remaining_credit: '11.0000', allocation_status: 'unallocated', status: 'approved', accounting: { sync_status: 'synced' } });

    // An accountant approves the invoice and applies the credit in the accounting system.
    const tenant = service.services.accounting.tenant(tenantId);
    await control(created.body.invoice.accounting.invoice_id, 'approve');
    await tenant.allocateCreditNote(note.accounting.credit_note_id, created.body.invoice.accounting.invoice_id, '11.0000', 'by-hand');
    const applied = await until('the applied credit is seen', async () => {
      const current = (await request(service.app).get(`/v1/credit_notes/${note.id}`).set(auth)).body;
      return current.allocation_status === 'fully_allocated' && current;
    });
    expect(applied).toMatchObject({ status: 'paid', remaining_credit: '0.0000', allocation_status: 'fully_allocated' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const seen = (await service.services.store.readStream(`credit_note-${note.id}`)).filter((event) => event.type === 'CreditNoteStatusObserved');
    expect(seen.map((event) => event.data)).toEqual([expect.objectContaining({ status: 'paid', remainingCredit: '0.0000', total: '11.0000' })]);
  });

  it('records changes made between two polls as one observation', async () => {
    const raised = await raise();
    await control(raised.accounting.invoice_id, 'approve');
    await control(raised.accounting.invoice_id, 'send');
    await control(raised.accounting.invoice_id, 'pay');
    await until('the payment is seen', async () => (await invoice(raised.id)).status === 'paid');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const seen = await observations(raised.id);
    // The three changes land within one poll (0.3 s) almost always; whatever the split, the last sighting holds everything.
    expect(seen.length).toBeLessThanOrEqual(3);
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ status: 'paid', sent: true, amountPaid: last.total });
    expect(await invoice(raised.id)).toMatchObject({ status: 'paid', sent: true });
  });
});
