import request from 'supertest';
import { awaitSync, type RaisedDocuments } from '../../commands/accounting/await-sync';
import { expectError } from '../support/api-assertions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { until } from '../support/until';

const workers = { accountingSync: { retryBaseMs: 100, retryMaxMs: 400 } };
// Requests wait a second for the worker's push, then answer with what the invoice is then.
const env = { ACCOUNTING_PUSH_WAIT_MS: '1000' };

type Setup = { orgId: string; tenantId: string; auth: { Authorization: string } };

const setUp = async (service: TestService): Promise<Setup> => {
  const orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
  const tenantId = await connectAccounting(service, orgId);
  await defineCatalogue(service, orgId);
  const { auth } = await createKey(service, orgId, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read', 'customers:write']);
  await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Customer One' });
  return { orgId, tenantId, auth };
};

describe('accounting sync worker: transient pushes retried, refusals kept until retry_sync', () => {
  let service: TestService;
  let setup: Setup;
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('accounting-sync'), { workers, env });
    setup = await setUp(service);
  });
  afterAll(() => service.close());
  afterEach(() => accountingControl(service, '/faults'));

  const post = () => request(service.app).post('/v1/subscriptions').set(setup.auth).set('Idempotency-Key', `sync-${++n}`).send({ customer_code: 'C1', plan_code: 'flat' });
  /** Waits on the log, not through the rate-limited API, until the worker has recorded the pushes' outcome and the read models show it. */
  const pushRecorded = async (documents: RaisedDocuments) => {
    const position = await awaitSync(service.services.store, 0n, documents, 20_000);
    await service.services.projections.waitFor(position);
  };
  const invoice = async (id: string) => (await request(service.app).get(`/v1/invoices/${id}`).set(setup.auth)).body;
  const ledgerInvoices = async () => (await service.services.accounting.tenant(setup.tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices;

  it('answers pending past the wait through an outage, and the worker pushes the invoice once the accounting system is back', async () => {
    // Each run of the job takes 4 failures in 1.4 s (its client retries 3 times, backing off from 200 ms): the outage outlasts the wait.
    await accountingControl(service, '/faults', { kind: '5xx', pathPrefix: `/tenants/${setup.tenantId}/invoices`, method: 'POST', count: 10 });
    const before = (await ledgerInvoices()).length;
    const created = await post();
    expect(created.status).toBe(201);
    expect(created.body.invoice).toMatchObject({ status: 'not_in_external', accounting: { sync_status: 'pending', invoice_id: null, sync_error: null } });
    await pushRecorded({ invoiceIds: [created.body.invoice.id] });
    const synced = await invoice(created.body.invoice.id);
    expect(synced).toMatchObject({ status: 'draft', number: expect.any(String), accounting: { sync_status: 'synced', sync_error: null } });
    expect(await ledgerInvoices()).toHaveLength(before + 1);
  });

  it('answers synced when the push is fast, and pending when it outlasts the wait; the worker still finishes it, once', async () => {
    const fast = await post();
    expect(fast.body.invoice.accounting).toEqual({ sync_status: 'synced', invoice_id: expect.any(String), sync_error: null });

    await accountingControl(service, '/faults', { kind: 'slow', pathPrefix: `/tenants/${setup.tenantId}/invoices`, method: 'POST', count: 1, delayMs: 4_000 });
    const before = (await ledgerInvoices()).length;
    const started = Date.now();
    const slow = await post();
    const answeredIn = Date.now() - started;
    expect(slow.status).toBe(201);
    expect(slow.body.invoice.accounting).toEqual({ sync_status: 'pending', invoice_id: null, sync_error: null });
    // The wait (1 s here), not the push (4 s), bounds the answer.
    expect(answeredIn).toBeGreaterThanOrEqual(1_000);
    expect(answeredIn).toBeLessThan(3_000);
    await pushRecorded({ invoiceIds: [slow.body.invoice.id] });
    const synced = await invoice(slow.body.invoice.id);
    expect(synced.accounting.sync_status).toBe('synced');
    expect(synced.accounting.invoice_id).toEqual(expect.any(String));
    expect(await ledgerInvoices()).toHaveLength(before + 1);
  });

  it('pushes a credit note through an outage with backoff, once, and keeps a refused one failed', async () => {
    const created = await request(service.app).post('/v1/subscriptions').set(setup.auth).set('Idempotency-Key', `sync-${++n}`).send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
    expect(created.body.invoice.accounting.sync_status).toBe('synced');
    const creditNotes = async () => (await service.services.accounting.tenant(setup.tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z')).creditNotes;
    const before = (await creditNotes()).length;
    await accountingControl(service, '/faults', { kind: '5xx', pathPrefix: `/tenants/${setup.tenantId}/credit_notes`, method: 'POST', count: 10 });
    const down = await request(service.app).post(`/v1/subscriptions/${created.body.id}/units`).set(setup.auth).send({ units: 4, prorate: true, effective_date: created.body.start_date });
    expect(down.status).toBe(200);
    const creditNote = down.body.change.credit_note;
    expect(creditNote.accounting).toEqual({ sync_status: 'pending', credit_note_id: null, sync_error: null });
    await pushRecorded({ creditNoteIds: [creditNote.id] });
    const synced = (await request(service.app).get(`/v1/credit_notes/${creditNote.id}`).set(setup.auth)).body;
    expect(synced).toMatchObject({ number: expect.any(String), accounting: { sync_status: 'synced', credit_note_id: expect.any(String), sync_error: null } });
    expect((await creditNotes()).filter((note) => note.id === synced.accounting.credit_note_id)).toHaveLength(1);
    expect(await creditNotes()).toHaveLength(before + 1);

    await accountingControl(service, '/faults', { kind: 'refuse', pathPrefix: `/tenants/${setup.tenantId}/credit_notes`, method: 'POST', count: 1, status: 400, code: 'validation_failed', message: 'Credit notes are closed' });
    const again = await request(service.app).post(`/v1/subscriptions/${created.body.id}/units`).set(setup.auth).send({ units: 3, prorate: true, effective_date: created.body.start_date });
    expect(again.body.change.credit_note.accounting).toEqual({ sync_status: 'failed', credit_note_id: null, sync_error: 'Credit notes are closed' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await request(service.app).get(`/v1/credit_notes/${again.body.change.credit_note.id}`).set(setup.auth)).body.accounting.sync_status).toBe('failed');
  });

  it('shows operators the queues, how far each worker has followed the log, and the poller', async () => {
    const status = await until('the outboxes have caught up', async () => {
      const body = (await request(service.app).get('/admin/v1/workers').set(service.admin)).body;
      return body.followers?.every((f: { lag: number }) => f.lag === 0) && body;
    });
    expect(status).toMatchObject({
      object: 'workers',
      queue_backend: 'sqlite',
      queues: [
        { name: 'accounting-push', failed: 0, failed_jobs: [] },
        { name: 'webhook-delivery', failed: 0, failed_jobs: [] },
      ],
      followers: [
        { name: 'accounting-sync', lag: 0 },
        { name: 'webhooks', lag: 0 },
      ],
      poller: { interval_seconds: 60, last_poll_at: expect.any(String), last_error: null },
      scheduler: { interval_seconds: 60, last_error: null },
    });
  });

  it('keeps a refused invoice failed until an operator retries it, then pushes it', async () => {
    await accountingControl(service, '/faults', { kind: 'refuse', pathPrefix: `/tenants/${setup.tenantId}/invoices`, method: 'POST', count: 1, status: 400, code: 'validation_failed', message: 'Account 200 is archived' });
    const created = await post();
    const id = created.body.invoice.id as string;
    expect(created.body.invoice.accounting).toEqual({ sync_status: 'failed', invoice_id: null, sync_error: 'Account 200 is archived' });
    // A refusal is not retried.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await invoice(id)).accounting.sync_status).toBe('failed');

    const retried = await request(service.app).post(`/admin/v1/organisations/${setup.orgId}/invoices/${id}/retry_sync`).set(service.admin).send({});
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id, accounting: { sync_status: 'pending', invoice_id: null, sync_error: null } });
    await until('the retried invoice is synced', async () => (await invoice(id)).accounting.sync_status === 'synced');

    expectError(
      await request(service.app).post(`/admin/v1/organisations/${setup.orgId}/invoices/${id}/retry_sync`).set(service.admin).send({}),
      409,
      'conflict',
      'invoice_sync_not_failed',
    );
    expectError(
      await request(service.app).post(`/admin/v1/organisations/${setup.orgId}/invoices/inv_nothing/retry_sync`).set(service.admin).send({}),
      404,
      'not_found',
      'invoice_not_found',
    );
  });
});

describe('accounting sync outbox: a crash between the append and the push loses nothing', () => {
  it('pushes, on the next start, an invoice raised by a process that died before pushing it', async () => {
    const dataDir = tempDir('outbox');
    // No workers in this process, and the request does not wait: the invoice is raised and never pushed.
    const first = await startTestService(dataDir, { delivery: false, env: { ACCOUNTING_PUSH_WAIT_MS: '0' } });
    const setup = await setUp(first);
    const created = await request(first.app).post('/v1/subscriptions').set(setup.auth).set('Idempotency-Key', 'died').send({ customer_code: 'C1', plan_code: 'flat' });
    expect(created.body.invoice.accounting.sync_status).toBe('pending');
    expectError(await request(first.app).get('/admin/v1/workers').set(first.admin), 409, 'conflict', 'workers_not_running');
    await first.close();

    const second = await startTestService(dataDir, { workers });
    try {
      const id = created.body.invoice.id as string;
      const synced = await until('the invoice is synced after the restart', async () => {
        const current = (await request(second.app).get(`/v1/invoices/${id}`).set(setup.auth)).body;
        return current.accounting.sync_status === 'synced' && current;
      });
      const ledger = (await second.services.accounting.tenant(setup.tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices;
      expect(ledger.filter((entry) => entry.id === synced.accounting.invoice_id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
