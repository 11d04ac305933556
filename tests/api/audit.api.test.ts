import request from 'supertest';
import { invoiceCommand } from '../../commands/plumbing/invoice-command';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('operator and auditor reads: history, as of, usage events', () => {
  // Creation at 10:00 on 15 March 2026; the invoice's push is refused, then recorded as synced at 11:00.
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  let service: TestService;
  let orgId: string;
  let otherOrgId: string;
  let tenantId: string;
  let keyId: string;
  let subscription: { id: string; customer: string; [field: string]: unknown };
  let invoice: { id: string; lines: { id: string }[]; [field: string]: unknown };
  let auth: { Authorization: string };
  beforeAll(async () => {
    service = await startTestService(tempDir('audit'), { clock });
    orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    otherOrgId = (await createOrganisation(service, { name: 'Other Ltd' })).id;
    tenantId = await connectAccounting(service, orgId);
    await defineCatalogue(service, orgId);
    const key = await createKey(service, orgId, ['subscriptions:write', 'subscriptions:read', 'customers:write', 'invoices:read']);
    keyId = key.id;
    auth = key.auth;
    await request(service.app).post('/v1/customers').set(key.auth).send({ code: 'C1', name: 'Customer One' });
    await accountingControl(service, '/faults', { kind: 'refuse', pathPrefix: `/tenants/${tenantId}/invoices`, method: 'POST', count: 1, status: 400, code: 'validation_failed', message: 'Locked period' });
    const created = await request(service.app)
      .post('/v1/subscriptions')
      .set(key.auth)
      .set('Idempotency-Key', 'audit-1')
      .set('Request-Id', 'req_audit1')
      .send({ customer_code: 'C1', plan_code: 'seats', units: 3 });
    expect(created.status).toBe(201);
    const { invoice: first, ...rest } = created.body as typeof subscription & { invoice: typeof invoice };
    invoice = first;
    subscription = rest;
    clock.set(new Date('2026-03-15T11:00:00.000Z'));
    // As a retry would record it once the accounting system takes the invoice.
    const { position } = await invoiceCommand(
      service.services,
      invoice.id,
      { type: 'RecordInvoiceSynced', invoiceId: invoice.id, accountingInvoiceId: 'acc_1', number: 'INV-0001', status: 'draft', total: '22.0000', amountPaid: '0.0000', creditNoteAmount: '0.0000', sent: false },
      { actor: { type: 'system' }, requestId: null },
      { id: orgId, livemode: true },
    );
    await service.services.projections.waitFor(position);
  });
  afterAll(async () => {
    await accountingControl(service, '/faults');
    await service.close();
  });

  const get = (path: string) => request(service.app).get(`/admin/v1/organisations/${orgId}${path}`).set(service.admin);

  describe('GET …/streams/{id}/events', () => {
    it('lists every event of an object, oldest first, with its metadata', async () => {
      const response = await get(`/streams/${invoice.id}/events`);
      expect(response.status).toBe(200);
      expect(response.body.has_more).toBe(false);
      expect(response.body.data.map((e: { type: string }) => e.type)).toEqual(['InvoiceRaised', 'InvoiceSyncFailed', 'InvoiceSynced']);
      const [raised, failed, synced] = response.body.data;
      expect(raised).toEqual({
        id: expect.any(String),
        object: 'event',
        position: expect.any(Number),
        revision: 0,
        type: 'InvoiceRaised',
        version: 1,
        data: expect.objectContaining({ invoiceId: invoice.id, subscriptionId: subscription.id, subtotal: '20.0000' }),
        metadata: {
          recorded_at: '2026-03-15T10:00:00.000Z',
          business_time: '2026-03-15T10:00:00.000Z',
          actor: { type: 'api_key', id: keyId },
          request_id: expect.stringMatching(/^req_/),
          causation_id: null,
          correlation_id: expect.stringMatching(/^req_/),
        },
      });
      expect(failed).toMatchObject({ revision: 1, data: { error: 'Locked period' } });
      expect(synced).toMatchObject({ revision: 2, metadata: { recorded_at: '2026-03-15T11:00:00.000Z', actor: { type: 'system' }, request_id: null } });
      expect(raised.position).toBeLessThan(failed.position);
      expect(failed.position).toBeLessThan(synced.position);
    });

    it('pages by revision with limit and starting_after', async () => {
      const first = await get(`/streams/${invoice.id}/events?limit=2`);
      expect(first.body.data.map((e: { revision: number }) => e.revision)).toEqual([0, 1]);
      expect(first.body.has_more).toBe(true);
      const second = await get(`/streams/${invoice.id}/events?limit=2&starting_after=1`);
      expect(second.body.data.map((e: { revision: number }) => e.revision)).toEqual([2]);
      expect(second.body.has_more).toBe(false);
      expectError(await get(`/streams/${invoice.id}/events?starting_after=3`), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
      expectError(await get(`/streams/${invoice.id}/events?limit=101`), 422, 'invalid_request_error', 'invalid_parameter', 'limit');
      expectError(await get(`/streams/${invoice.id}/events?limit=0`), 422, 'invalid_request_error', 'invalid_parameter', 'limit');
      // In decimal digits, as every list's limit: no exponent, sign, fraction or hexadecimal.
      for (const limit of ['1e1', '0x2', '2.0', ' 2']) {
        expectError(await get(`/streams/${invoice.id}/events?limit=${encodeURIComponent(limit)}`), 422, 'invalid_request_error', 'invalid_parameter', 'limit');
      }
      for (const revision of ['-1', '1.0', '1e0', '']) {
        expectError(await get(`/streams/${invoice.id}/events?starting_after=${encodeURIComponent(revision)}`), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
      }
    });

    it('reads the organisation’s own stream, its customers’ and its subscriptions’', async () => {
      const own = await get(`/streams/${orgId}/events`);
      expect(own.body.data[0]).toMatchObject({ type: 'OrganisationCreated', revision: 0, metadata: { actor: { type: 'admin' } } });
      const sub = await get(`/streams/${subscription.id}/events`);
      expect(sub.body.data.map((e: { type: string }) => e.type)).toEqual(['SubscriptionCreated']);
      const customer = await get(`/streams/${subscription.customer}/events`);
      expect(customer.body.data[0].type).toBe('CustomerImported');
    });

    it('answers 404 for an unknown id, an unknown prefix, an unknown organisation and another organisation’s object', async () => {
      expectError(await get('/streams/sub_nothing/events'), 404, 'not_found', 'stream_not_found', 'id');
      expectError(await get('/streams/zzz_nothing/events'), 404, 'not_found', 'stream_not_found', 'id');
      expectError(await get('/streams/not-an-id/events'), 404, 'not_found', 'stream_not_found', 'id');
      const other = (path: string) => request(service.app).get(`/admin/v1/organisations/${otherOrgId}${path}`).set(service.admin);
      expectError(await other(`/streams/${invoice.id}/events`), 404, 'not_found', 'stream_not_found', 'id');
      expectError(await other(`/streams/${subscription.id}/events`), 404, 'not_found', 'stream_not_found', 'id');
      expectError(await other(`/streams/${orgId}/events`), 404, 'not_found', 'stream_not_found', 'id');
      expectError(
        await request(service.app).get(`/admin/v1/organisations/org_nothing/streams/${invoice.id}/events`).set(service.admin),
        404,
        'not_found',
        'organisation_not_found',
      );
    });

    it('needs the admin token', async () => {
      const response = await request(service.app).get(`/admin/v1/organisations/${orgId}/streams/${orgId}/events`);
      expectError(response, 401, 'authentication_error', 'invalid_api_key');
    });
  });

  describe('GET …/subscriptions/{id}?as_of=', () => {
    it('shows the subscription and its invoices as they stood at each instant', async () => {
      const now = await get(`/subscriptions/${subscription.id}`);
      expect(now.status).toBe(200);
      const { invoices, credit_notes: creditNotes, ...current } = now.body;
      expect(current).toEqual(subscription);
      expect(creditNotes).toEqual([]);
      const read = await request(service.app).get(`/v1/invoices/${invoice.id}`).set((await createKey(service, orgId, ['invoices:read'])).auth);
      expect(invoices).toEqual([read.body]);
      expect(invoices[0]).toMatchObject({ number: 'INV-0001', accounting: { sync_status: 'synced' } });

      const before = await get(`/subscriptions/${subscription.id}?as_of=2026-03-15T10:59:59Z`);
      expect(before.status).toBe(200);
      expect(before.body.invoices).toEqual([
        expect.objectContaining({ id: invoice.id, number: null, accounting: { sync_status: 'failed', invoice_id: null, sync_error: 'Locked period' } }),
      ]);
      const withOffset = await get(`/subscriptions/${subscription.id}?as_of=${encodeURIComponent('2026-03-15T11:59:59+01:00')}`);
      expect(withOffset.body).toEqual(before.body);
    });

    it('answers 404 before the subscription existed, for an unknown one and for another organisation’s', async () => {
      expectError(await get(`/subscriptions/${subscription.id}?as_of=2026-03-15T09:59:59.999Z`), 404, 'not_found', 'subscription_not_found', 'id');
      expectError(await get('/subscriptions/sub_nothing'), 404, 'not_found', 'subscription_not_found', 'id');
      const other = await request(service.app).get(`/admin/v1/organisations/${otherOrgId}/subscriptions/${subscription.id}`).set(service.admin);
      expectError(other, 404, 'not_found', 'subscription_not_found', 'id');
    });

    it('refuses an as_of that is not an ISO timestamp', async () => {
      expectError(await get(`/subscriptions/${subscription.id}?as_of=yesterday`), 422, 'invalid_request_error', 'invalid_parameter', 'as_of');
    });
  });

  it('follows the lifecycle: units changed and the subscription ended after an instant are not in its view of then', async () => {
    const ended = await request(service.app).get(`/admin/v1/organisations/${orgId}/subscriptions/${subscription.id}?as_of=2026-03-15T11:30:00Z`).set(service.admin);
    clock.set(new Date('2026-03-15T12:00:00.000Z'));
    const changed = await request(service.app).post(`/v1/subscriptions/${subscription.id}/units`).set(auth).set('Idempotency-Key', 'audit-units').send({ units: 7 });
    expect(changed.status).toBe(200);
    clock.set(new Date('2026-03-15T13:00:00.000Z'));
    const end = await request(service.app).post(`/v1/subscriptions/${subscription.id}/end`).set(auth).set('Idempotency-Key', 'audit-end').send({ when: 'period_end' });
    expect(end.status).toBe(200);
    const at = (instant: string) => get(`/subscriptions/${subscription.id}?as_of=${instant}`);
    expect((await at('2026-03-15T11:30:00Z')).body).toEqual(ended.body);
    expect((await at('2026-03-15T12:30:00Z')).body).toMatchObject({ units: 7, cancel_at_period_end: false });
    const now = (await get(`/subscriptions/${subscription.id}`)).body;
    expect(now).toMatchObject({ units: 7, cancel_at_period_end: true });
    const { invoices: _invoices, credit_notes: _creditNotes, ...current } = now;
    const read = await request(service.app).get(`/v1/subscriptions/${subscription.id}`).set(auth);
    expect(current).toEqual(read.body);
    const history = await get(`/streams/${subscription.id}/events`);
    expect(history.body.data.map((e: { type: string }) => e.type)).toEqual(['SubscriptionCreated', 'SubscriptionUnitsChanged', 'SubscriptionEndScheduled']);
  });

  describe('GET …/invoices/{id}/lines/{line}/usage_events', () => {
    it('answers an empty list for a line that billed no usage', async () => {
      const response = await get(`/invoices/${invoice.id}/lines/${invoice.lines[0]!.id}/usage_events`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ object: 'list', data: [], has_more: false });
    });

    it('answers 404 for an unknown invoice, an unknown line and another organisation’s invoice', async () => {
      expectError(await get(`/invoices/inv_nothing/lines/${invoice.lines[0]!.id}/usage_events`), 404, 'not_found', 'invoice_not_found', 'id');
      expectError(await get(`/invoices/${invoice.id}/lines/il_nothing/usage_events`), 404, 'not_found', 'invoice_line_not_found', 'line');
      const other = await request(service.app)
        .get(`/admin/v1/organisations/${otherOrgId}/invoices/${invoice.id}/lines/${invoice.lines[0]!.id}/usage_events`)
        .set(service.admin);
      expectError(other, 404, 'not_found', 'invoice_not_found', 'id');
      expectError(await get(`/invoices/${invoice.id}/lines/${invoice.lines[0]!.id}/usage_events?starting_after=evt_1`), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
    });
  });
});
