import request from 'supertest';
import { requestFingerprint } from '../../api/public/idempotency';
import { createSubscription } from '../../commands/subscription/create-subscription';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { billingOrganisation, defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { awaitSync } from '../../commands/accounting/await-sync';

describe('subscriptions: creation, first invoice, reads', () => {
  // 10:00 UTC on 15 March 2026; the organisation's timezone is Europe/London (GMT then).
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  let service: TestService;
  let orgId: string;
  let tenantId: string;
  let auth: { Authorization: string };
  let keyId: string;
  let catalogue: Awaited<ReturnType<typeof defineCatalogue>>;
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('subscriptions'), { clock });
    ({ orgId, tenantId, catalogue, auth, keyId } = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write']));
  });
  afterAll(async () => {
    await service.close();
  });
  afterEach(async () => {
    await accountingControl(service, '/faults');
  });

  const post = (body: object, key = `key-${++n}`) =>
    request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', key).send(body);
  const ledgerInvoices = async () => (await service.services.accounting.tenant(tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices;

  it('creates a per-unit subscription with every field, and its first invoice in the accounting system', async () => {
    const response = await post({ customer_code: 'C1', plan_code: 'seats', units: 5, discount_percent: '10', invoice_reference: 'PO-7', label: 'Main' });
    expect(response.status).toBe(201);
    const { invoice, ...subscription } = response.body;
    // seats: 10.0000 per seat, 1 free: (5 − 1) × 10 = 40.0000; 10% off = 36.0000
    expect(subscription).toEqual({
      id: expect.stringMatching(/^sub_/),
      object: 'subscription',
      customer: expect.stringMatching(/^cus_/),
      customer_code: 'C1',
      plan: catalogue.plans.per_unit!.id,
      status: 'active',
      currency: 'GBP',
      interval: { unit: 'month', count: 1 },
      timezone: 'Europe/London',
      start_date: '2026-03-15',
      renewal_date: '2026-04-15',
      end_date: null,
      units: 5,
      minimum_units: 0,
      discount_percent: '10.00',
      cancel_at_period_end: false,
      end_after_cycles: null,
      label: 'Main',
      invoice_reference: 'PO-7',
      renewal_value: '36.0000',
      usage_value: '0.0000',
      usage_value_annual: '0.0000',
      minimum_usage_value: '0.0000',
      meters: [],
      cpi_enabled: false,
      created: '2026-03-15T10:00:00.000Z',
    });
    const pushed = (await ledgerInvoices()).find((i) => i.id === invoice.accounting.invoice_id)!;
    expect(invoice).toEqual({
      id: expect.stringMatching(/^inv_/),
      object: 'invoice',
      customer: subscription.customer,
      subscription: subscription.id,
      number: pushed.number,
      reference: 'PO-7',
      status: 'draft',
      currency: 'GBP',
      invoice_date: '2026-03-15T10:00:00.000Z',
      due_date: '2026-03-29T10:00:00.000Z',
      subtotal: '36.0000',
      // 10% tax on the accounting side: 36 + 3.6 = 39.6000
      total: '39.6000',
      credit_note_amount: '0.0000',
      amount_paid: '0.0000',
      sent: false,
      accounting: { sync_status: 'synced', invoice_id: pushed.id, sync_error: null },
      lines: [
        {
          id: expect.stringMatching(/^il_/),
          type: 'subscription',
          revenue_type: 'new_subscription',
          meter: null,
          usage_quantity: null,
          name: 'Seats',
          description: 'Period 2026-03-15 to 2026-04-15',
          units: 5,
          amount: '40.0000',
          discount_amount: '4.0000',
          charge_amount: '36.0000',
          effective_date: '2026-03-15T00:00:00.000Z',
        },
      ],
      created: '2026-03-15T10:00:00.000Z',
    });
    expect(pushed).toMatchObject({ subtotal: '36.0000', total: '39.6000', reference: 'PO-7', status: 'draft' });
    const read = await request(service.app).get(`/v1/subscriptions/${subscription.id}`).set(auth);
    expect(read.body).toEqual(subscription);
    const invoiceRead = await request(service.app).get(`/v1/invoices/${invoice.id}`).set(auth);
    expect(invoiceRead.body).toEqual(invoice);
  });

  it.each([
    // flat fee: 49.99, no units
    [{ plan_code: 'flat' }, '49.9900', null],
    // flat fee with its own price
    [{ plan_code: 'flat', flat_fee_price: '39' }, '39.0000', null],
    // tiered 25 units: 10 × 5 + 10 × 4 + 5 × 3.5 = 107.5000
    [{ plan_code: 'tiered', units: 25 }, '107.5000', 25],
    // volume 25 units: 25 × 3.5 = 87.5000
    [{ plan_code: 'volume', units: 25 }, '87.5000', 25],
    // stairstep 15 units: the 11–20 band's price, 4.0000, for the whole quantity
    [{ plan_code: 'stairs', units: 15 }, '4.0000', 15],
    // no base fee: nothing up front
    [{ plan_code: 'metered' }, '0.0000', null],
  ])('prices the first period of %j at %s', async (body, amount, units) => {
    const response = await post({ customer_code: 'C1', ...body });
    expect(response.status).toBe(201);
    expect(response.body.invoice.lines[0]).toMatchObject({ type: 'subscription', amount, units, charge_amount: amount });
    expect(response.body.invoice.accounting.sync_status).toBe('synced');
  });

  it('shows meters and their minimums on a metered subscription, raising a meter minimum', async () => {
    const response = await post({ customer_code: 'C1', plan_code: 'metered', meters: [{ meter_code: 'api_calls', minimum_units: 5000 }] });
    expect(response.body.meters).toEqual([
      { meter: expect.stringMatching(/^mtr_/), meter_code: 'api_calls', name: 'API calls', minimum_units: 5000, plan_minimum_units: 100 },
      { meter: expect.stringMatching(/^mtr_/), meter_code: 'storage_gb', name: 'Storage', minimum_units: 0, plan_minimum_units: 0 },
    ]);
    // api_calls: (5,000 − 1,000 included) × 0.0015 = 6.0000; storage: volume at 0 = 0
    expect(response.body).toMatchObject({ minimum_usage_value: '6.0000', renewal_value: '6.0000' });
  });

  it('adds one-off charges, discounting only those with apply_discount', async () => {
    const response = await post({
      customer_code: 'C1',
      plan_code: 'flat',
      discount_percent: '20',
      charges: [
        { charge: catalogue.charge.id, quantity: 2 },
        { charge: catalogue.charge.id, apply_discount: true },
      ],
    });
    const lines = response.body.invoice.lines;
    // plan 49.99 − 20% (9.998 → 9.9980) = 39.9920; charge 2 × 99.50 = 199.0000 undiscounted; 99.50 − 19.90 = 79.6000
    expect(lines.map((l: { type: string; amount: string; discount_amount: string; charge_amount: string; revenue_type: string }) => [l.type, l.amount, l.discount_amount, l.charge_amount, l.revenue_type])).toEqual([
      ['subscription', '49.9900', '9.9980', '39.9920', 'new_subscription'],
      ['charge', '199.0000', '0.0000', '199.0000', 'new_subscription'],
      ['charge', '99.5000', '19.9000', '79.6000', 'new_subscription'],
    ]);
    expect(lines[1]).toMatchObject({ units: null, name: 'Setup fee × 2', description: 'One-off onboarding' });
    expect(response.body.invoice.subtotal).toBe('318.5920');
  });

  it('is pending with a future start date, and still raises the first invoice', async () => {
    const response = await post({ customer_code: 'C1', plan_code: 'seats', units: 3, start_date: '2026-04-01', end_after_cycles: 3 });
    expect(response.body).toMatchObject({ status: 'pending', start_date: '2026-04-01', renewal_date: '2026-05-01', end_date: '2026-07-01', end_after_cycles: 3 });
    expect(response.body.invoice.accounting.sync_status).toBe('synced');
  });

  it.each([
    [{ plan_code: 'seats', units: 3 }, 422, 'invalid_parameter', 'customer_code'],
    [{ customer_code: 'C1', units: 3 }, 422, 'invalid_parameter', 'plan_code'],
    [{ customer_code: 'C1', plan_code: 'seats' }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 1 }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'seats', units: -1 }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 2.5 }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'flat', units: 2 }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'metered', units: 2 }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, minimum_units: 1 }, 422, 'invalid_parameter', 'minimum_units'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, minimum_units: 6 }, 422, 'invalid_parameter', 'units'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, flat_fee_price: '1' }, 422, 'invalid_parameter', 'flat_fee_price'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, discount_percent: '100.01' }, 422, 'invalid_parameter', 'discount_percent'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, discount_percent: '1.234' }, 422, 'invalid_parameter', 'discount_percent'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, start_date: '2026-02-30' }, 422, 'invalid_parameter', 'start_date'],
    [{ customer_code: 'C1', plan_code: 'seats', units: 5, end_after_cycles: 0 }, 422, 'invalid_parameter', 'end_after_cycles'],
    [{ customer_code: 'C1', plan_code: 'metered', meters: [{ meter_code: 'nope', minimum_units: 1 }] }, 422, 'invalid_parameter', 'meters.0.meter_code'],
    [{ customer_code: 'C1', plan_code: 'metered', meters: [{ meter_code: 'api_calls', minimum_units: 1 }] }, 422, 'invalid_parameter', 'meters.0.minimum_units'],
    [{ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: 'chg_nope' }] }, 404, 'charge_not_found', 'charges.0.charge'],
    [{ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: 'x', price: '1.00001' }] }, 422, 'invalid_parameter', 'charges.0.price'],
    [{ customer_code: 'C1', plan_code: 'flat', colour: 'red' }, 422, 'invalid_parameter', 'colour'],
    [{ customer_code: 'C1', plan_code: 'flat', create_customer: { name: 'X', phone: '1' } }, 422, 'invalid_parameter', 'create_customer.phone'],
    [{ customer_code: 'NOBODY', plan_code: 'flat' }, 404, 'customer_not_found', 'customer_code'],
    [{ customer_code: 'C1', plan_code: 'nothing' }, 404, 'plan_not_found', 'plan_code'],
  ])('refuses %j with %i %s naming %s, and changes nothing', async (body, status, code, param) => {
    const before = await service.services.store.headPosition();
    const invoicesBefore = (await ledgerInvoices()).length;
    const response = await post(body);
    expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({ status, code, param });
    expect(await service.services.store.headPosition()).toBe(before);
    expect(await ledgerInvoices()).toHaveLength(invoicesBefore);
  });

  it('refuses a charge in another currency and a plan that cannot be sold', async () => {
    const admin = (path: string, body: object) => request(service.app).post(`/admin/v1/organisations/${orgId}/${path}`).set(service.admin).send(body);
    const euro = await admin('charges', { code: 'eur-fee', name: 'Euro fee', currency: 'EUR', price: '5' });
    expectError(await post({ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: euro.body.id }] }), 422, 'invalid_request_error', 'invalid_parameter', 'charges.0.charge');
    const noOverride = await post({ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: catalogue.charge.id, price: '1' }] });
    expectError(noOverride, 422, 'invalid_request_error', 'invalid_parameter', 'charges.0.price');
    const legacy = await admin('plans', { code: 'old', name: 'Old', type: 'flat_fee', interval: { unit: 'month' }, currency: 'GBP', price: '1', status: 'legacy' });
    expect(legacy.status).toBe(201);
    expectError(await post({ customer_code: 'C1', plan_code: 'old' }), 422, 'invalid_request_error', 'invalid_parameter', 'plan_code');
  });

  it('creates the customer with create_customer, only when no customer has the code', async () => {
    const response = await post({ customer_code: 'NEW-1', create_customer: { name: 'New One', email: 'new@one.example' }, plan_code: 'flat' });
    expect(response.status).toBe(201);
    expect(response.body.customer_code).toBe('NEW-1');
    expect(await service.services.accounting.tenant(tenantId).findContactByNumber('NEW-1')).toMatchObject({ name: 'New One' });
    const reused = await post({ customer_code: 'NEW-1', create_customer: { name: 'Ignored' }, plan_code: 'flat' });
    expect(reused.body.customer).toBe(response.body.customer);
  });

  it.each([
    ['a quote', 'QU"OTE'],
    ['an apostrophe', "APOS'"],
    ['a backslash', 'BACK\\SLASH'],
    ['a leading space', ' LEAD'],
    ['a trailing space', 'TRAIL '],
    ['a control character', 'TAB\tCODE'],
  ])('holds customer_code sent with create_customer to the customer code rules: %s is 422 naming customer_code', async (_label, code) => {
    const before = await service.services.store.headPosition();
    const response = await post({ customer_code: code, create_customer: { name: `Rule ${code}` }, plan_code: 'flat' });
    expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'customer_code');
    expect(await service.services.store.headPosition()).toBe(before);
    expect(await service.services.accounting.tenant(tenantId).findContactByNumber(code)).toBeNull();
  });

  it('only looks a customer up by a customer_code sent without create_customer: a code no customer can have is 404', async () => {
    expectError(await post({ customer_code: ' C1', plan_code: 'flat' }), 404, 'not_found', 'customer_not_found', 'customer_code');
  });

  it.each([
    ['a blank name', { name: ' ' }],
    ['a name of whitespace', { name: '\t\n ' }],
  ])('refuses %s in create_customer with 422 naming create_customer.name: names are not blank', async (_label, createCustomer) => {
    const before = await service.services.store.headPosition();
    const response = await post({ customer_code: 'BLANK-1', create_customer: createCustomer, plan_code: 'flat' });
    expectError(response, 422, 'invalid_request_error', 'invalid_parameter', 'create_customer.name');
    expect(await service.services.store.headPosition()).toBe(before);
    expect(await service.services.accounting.tenant(tenantId).findContactByNumber('BLANK-1')).toBeNull();
  });

  it('needs an Idempotency-Key, replays the same response, and refuses the key for another request', async () => {
    expectError(await request(service.app).post('/v1/subscriptions').set(auth).send({ customer_code: 'C1', plan_code: 'flat' }), 422, 'invalid_request_error', 'idempotency_key_required');
    const first = await post({ customer_code: 'C1', plan_code: 'flat' }, 'replay-key');
    const count = (await ledgerInvoices()).length;
    const replay = await post({ plan_code: 'flat', customer_code: 'C1' }, 'replay-key');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await ledgerInvoices()).toHaveLength(count);
    expectError(await post({ customer_code: 'C1', plan_code: 'seats', units: 3 }, 'replay-key'), 409, 'conflict', 'idempotency_conflict');
  });

  it('answers 201 with a failed invoice when the accounting system refuses it; a replay raises no second invoice', async () => {
    await accountingControl(service, '/faults', { kind: 'refuse', pathPrefix: `/tenants/${tenantId}/invoices`, method: 'POST', count: 1, status: 400, code: 'validation_failed', message: 'Invoice date is in a locked period' });
    const before = (await ledgerInvoices()).length;
    const response = await post({ customer_code: 'C1', plan_code: 'flat' }, 'failing-push');
    expect(response.status).toBe(201);
    expect(response.body.status).toBe('active');
    expect(response.body.invoice).toMatchObject({
      status: 'not_in_external',
      number: null,
      accounting: { sync_status: 'failed', invoice_id: null, sync_error: 'Invoice date is in a locked period' },
    });
    const replay = await post({ customer_code: 'C1', plan_code: 'flat' }, 'failing-push');
    expect(replay.body).toEqual(response.body);
    expect(await ledgerInvoices()).toHaveLength(before);
    const invoices = await request(service.app).get(`/v1/invoices?subscription=${response.body.id}`).set(auth);
    expect(invoices.body.data).toHaveLength(1);
  });

  it('leaves the invoice pending, not failed, when the accounting system is down: an outage is not a refusal', async () => {
    // Every attempt the HTTP client makes (the first and its retries) gets a 5xx.
    await accountingControl(service, '/faults', { kind: '5xx', pathPrefix: `/tenants/${tenantId}/invoices`, method: 'POST', count: 10 });
    const before = (await ledgerInvoices()).length;
    const response = await post({ customer_code: 'C1', plan_code: 'flat' }, 'outage-push');
    expect(response.status).toBe(201);
    expect(response.body.invoice).toMatchObject({
      status: 'not_in_external',
      number: null,
      accounting: { sync_status: 'pending', invoice_id: null, sync_error: null },
    });
    const events = await service.services.store.readStream(`invoice-${response.body.invoice.id}`);
    expect(events.map((e) => e.type)).toEqual(['InvoiceRaised']);
    const replay = await post({ customer_code: 'C1', plan_code: 'flat' }, 'outage-push');
    expect(replay.body).toEqual(response.body);
    expect(await ledgerInvoices()).toHaveLength(before);
  });

  it('returns the existing subscription after a crash between saving and answering, with one invoice', async () => {
    const body = { customer_code: 'C1', plan_code: 'seats', units: 4 };
    // The work is done as the request would have done it, but no answer was stored: the process died.
    const done = await createSubscription(
      service.services,
      { actor: { type: 'api_key', id: keyId }, requestId: 'req_crashed' },
      { organisationId: orgId, apiKeyId: keyId, idempotencyKey: 'crash-key', requestFingerprint: requestFingerprint('POST', '/v1/subscriptions', body) },
      {
        customerCode: 'C1',
        createCustomer: null,
        planCode: 'seats',
        charges: [],
        request: { units: 4, discountPercent: '0.00', invoiceReference: null, startDate: null, flatFeePrice: null, minimumUnits: null, meters: [], endAfterCycles: null, label: null, cpiEnabled: false },
      },
    );
    // The accounting sync worker pushes the invoice the crashed request raised, once.
    await awaitSync(service.services.store, 0n, { invoiceIds: [done.invoiceId] }, 5_000);
    const before = (await ledgerInvoices()).length;
    expectError(await post({ ...body, units: 5 }, 'crash-key'), 409, 'conflict', 'idempotency_conflict');
    const retried = await post(body, 'crash-key');
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.id).toBe(done.subscriptionId);
    expect(retried.body.invoice.id).toBe(done.invoiceId);
    expect(await ledgerInvoices()).toHaveLength(before);
    const list = await request(service.app).get(`/v1/invoices?subscription=${done.subscriptionId}`).set(auth);
    expect(list.body.data).toHaveLength(1);
  });

  it('raises the first invoice on the retry when the process died before raising it', async () => {
    const store = service.services.store;
    const append = store.append.bind(store);
    store.append = (stream, events, expected) =>
      stream.startsWith('invoice-') ? Promise.reject(new Error('process died')) : append(stream, events, expected);
    const died = await post({ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: catalogue.charge.id }] }, 'died-key');
    store.append = append;
    expectError(died, 500, 'api_error', 'internal_error');
    const before = (await ledgerInvoices()).length;
    const retried = await post({ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: catalogue.charge.id }] }, 'died-key');
    expect(retried.status).toBe(201);
    expect(retried.body.invoice.lines.map((l: { type: string }) => l.type)).toEqual(['subscription', 'charge']);
    expect(retried.body.invoice.accounting.sync_status).toBe('synced');
    expect(await ledgerInvoices()).toHaveLength(before + 1);
    const again = await post({ customer_code: 'C1', plan_code: 'flat', charges: [{ charge: catalogue.charge.id }] }, 'died-key');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await ledgerInvoices()).toHaveLength(before + 1);
  });

  it('lists subscriptions and invoices with their filters', async () => {
    const other = await request(service.app).post('/v1/customers').set(auth).send({ code: 'C2', name: 'Customer Two' });
    const created = await post({ customer_code: 'C2', plan_code: 'flat' });
    const byCode = await request(service.app).get('/v1/subscriptions?customer_code=C2').set(auth);
    expect(byCode.body.data.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    const byCustomer = await request(service.app).get(`/v1/subscriptions?customer=${other.body.id}&status=active`).set(auth);
    expect(byCustomer.body.data).toHaveLength(1);
    const pending = await request(service.app).get('/v1/subscriptions?status=pending').set(auth);
    expect(pending.body.data.every((s: { status: string }) => s.status === 'pending')).toBe(true);
    const invoices = await request(service.app).get(`/v1/invoices?customer=${other.body.id}&status=draft`).set(auth);
    expect(invoices.body.data.map((i: { subscription: string }) => i.subscription)).toEqual([created.body.id]);
    expectError(await request(service.app).get('/v1/invoices?status=lost').set(auth), 422, 'invalid_request_error', 'invalid_parameter', 'status');
    expectError(await request(service.app).get('/v1/invoices/inv_nope').set(auth), 404, 'not_found', 'invoice_not_found');
    expectError(await request(service.app).get('/v1/subscriptions/sub_nope').set(auth), 404, 'not_found', 'subscription_not_found');
  });
});

describe('subscriptions: an Idempotency-Key reused after its 24 hours', () => {
  const clock = fixedClock(new Date('2026-04-01T09:00:00.000Z'));
  let service: TestService;
  let tenantId: string;
  let auth: { Authorization: string };
  beforeAll(async () => {
    service = await startTestService(tempDir('idempotency-lapsed'), { clock });
    const orgId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    tenantId = await connectAccounting(service, orgId);
    await defineCatalogue(service, orgId);
    auth = (await createKey(service, orgId, ['subscriptions:write', 'customers:write'])).auth;
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'L1', name: 'Lapsed One' });
  });
  afterAll(async () => {
    await service.close();
  });

  const post = (body: object) => request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'lapsing-key').send(body);
  const ledgerInvoices = async () => (await service.services.accounting.tenant(tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z')).invoices;

  it('finds the old subscription: 409 idempotency_conflict for another request, the old answer for the same one', async () => {
    const body = { customer_code: 'L1', plan_code: 'seats', units: 3 };
    const first = await post(body);
    expect(first.status).toBe(201);
    const invoices = (await ledgerInvoices()).length;
    clock.advance(24 * 60 * 60 * 1000 + 60_000);

    const before = await service.services.store.headPosition();
    const other = await post({ customer_code: 'L1', plan_code: 'flat' });
    expectError(other, 409, 'conflict', 'idempotency_conflict');
    expect(await service.services.store.headPosition()).toBe(before);

    const same = await post({ units: 3, plan_code: 'seats', customer_code: 'L1' });
    expect(same.status).toBe(201);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.body).toEqual(first.body);
    expect(await service.services.store.headPosition()).toBe(before);
    expect(await ledgerInvoices()).toHaveLength(invoices);
  });
});

describe('subscriptions: organisation rules', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.close();
  });

  const setUp = async (settings: object = {}, connect = true) => {
    const org = await createOrganisation(service, { name: `Org ${Math.random()}`, ...settings });
    if (connect) await connectAccounting(service, org.id);
    await defineCatalogue(service, org.id);
    const key = await createKey(service, org.id, ['subscriptions:write', 'customers:write']);
    return { org, auth: key.auth };
  };

  it('answers type and range rules before the organisation, plan and customer; rules needing them after', async () => {
    const { auth } = await setUp({}, false);
    const post = (key: string, body: object) => request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', key).send(body);
    // The organisation is not connected (409), but the body's shape answers first.
    expectError(await post('order-1', { customer_code: 'NOBODY', plan_code: 'nothing', units: -1 }), 422, 'invalid_request_error', 'invalid_parameter', 'units');
    expectError(await post('order-2', { customer_code: 'NOBODY', plan_code: 'nothing', label: 'x'.repeat(256) }), 422, 'invalid_request_error', 'invalid_parameter', 'label');
    expectError(await post('order-3', { customer_code: 'NOBODY', plan_code: 'flat', units: 2 }), 409, 'conflict', 'accounting_not_connected');
    const connected = await setUp();
    const postConnected = (key: string, body: object) => request(service.app).post('/v1/subscriptions').set(connected.auth).set('Idempotency-Key', key).send(body);
    // Units on a flat fee plan is a rule about the plan: it waits for the plan and the customer.
    expectError(await postConnected('order-4', { customer_code: 'NOBODY', plan_code: 'nothing', units: 2 }), 404, 'not_found', 'plan_not_found', 'plan_code');
    expectError(await postConnected('order-5', { customer_code: 'NOBODY', plan_code: 'flat', units: 2 }), 404, 'not_found', 'customer_not_found', 'customer_code');
  });

  it('raises no invoice in Setup Mode and refuses a future start date there', async () => {
    const { org, auth } = await setUp({ setup_mode: true, can_create_accounting_contacts: true });
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'S1', name: `Setup ${org.id}` });
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'setup-1').send({ customer_code: 'S1', plan_code: 'seats', units: 3, start_date: '2020-01-10' });
    expect(created.status).toBe(201);
    expect(created.body.invoice).toBeNull();
    expect(created.body.status).toBe('active');
    const events = await service.services.store.readAll(0n, 10_000);
    expect(events.filter((e) => e.type === 'InvoiceRaised' && (e.data as { subscriptionId: string }).subscriptionId === created.body.id)).toEqual([]);
    const future = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'setup-2').send({ customer_code: 'S1', plan_code: 'seats', units: 3, start_date: '2099-01-01' });
    expectError(future, 422, 'invalid_request_error', 'invalid_parameter', 'start_date');
  });

  it('refuses 409 accounting_not_connected and accounting_accounts_not_mapped', async () => {
    const { auth } = await setUp({}, false);
    expectError(
      await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'nc-1').send({ customer_code: 'X', plan_code: 'flat' }),
      409,
      'conflict',
      'accounting_not_connected',
    );
    const unmapped = await createOrganisation(service, { name: 'Unmapped' });
    await request(service.app).post(`/admin/v1/organisations/${unmapped.id}/accounting/connect`).set(service.admin).send({});
    await defineCatalogue(service, unmapped.id);
    const key = await createKey(service, unmapped.id, ['subscriptions:write']);
    expectError(
      await request(service.app).post('/v1/subscriptions').set(key.auth).set('Idempotency-Key', 'nm-1').send({ customer_code: 'X', plan_code: 'flat' }),
      409,
      'conflict',
      'accounting_accounts_not_mapped',
    );
    await request(service.app).put(`/admin/v1/organisations/${unmapped.id}/accounting/accounts`).set(service.admin).send({ revenue: '200' });
    // Meters are defined, so the usage revenue account is needed too.
    expectError(
      await request(service.app).post('/v1/subscriptions').set(key.auth).set('Idempotency-Key', 'nm-2').send({ customer_code: 'X', plan_code: 'flat' }),
      409,
      'conflict',
      'accounting_accounts_not_mapped',
    );
  });

  it('refuses past the plan’s subscription limit with 403 plan_limit_reached', async () => {
    const { org, auth } = await setUp({ can_create_accounting_contacts: true });
    await request(service.app).patch(`/admin/v1/organisations/${org.id}`).set(service.admin).send({ plan_limits: { subscriptions: 1 } });
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'L1', name: `Limit ${org.id}` });
    expect((await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'l-1').send({ customer_code: 'L1', plan_code: 'flat' })).status).toBe(201);
    expectError(
      await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'l-2').send({ customer_code: 'L1', plan_code: 'flat' }),
      403,
      'permission_error',
      'plan_limit_reached',
    );
  });

  it('errors about create_customer name the request’s fields: create_customer.name and customer_code', async () => {
    const { org, auth } = await setUp({ can_create_accounting_contacts: true });
    const tenantId: string = (await request(service.app).get(`/admin/v1/organisations/${org.id}`).set(service.admin)).body.accounting.tenant_id;
    const tenant = service.services.accounting.tenant(tenantId);
    await tenant.createContact({ name: 'Taken Ltd', contactNumber: 'TK-0' }, 'setup-tk-0');
    const archived = await tenant.createContact({ name: 'Gone Ltd', contactNumber: 'GONE-1' }, 'setup-gone-1');
    await accountingControl(service, `/tenants/${tenantId}/contacts/${archived.id}/archive`);
    const subscribe = (key: string, body: object) =>
      request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', key).send({ plan_code: 'flat', ...body });
    expectError(await subscribe('cc-name', { customer_code: 'TK-1', create_customer: { name: 'Taken Ltd' } }), 409, 'conflict', 'accounting_contact_name_taken', 'create_customer.name');
    expectError(await subscribe('cc-arch', { customer_code: 'GONE-1', create_customer: { name: 'Gone again' } }), 409, 'conflict', 'accounting_contact_archived', 'customer_code');
  });

  it('needs the organisation’s permission to create a customer within a subscription request', async () => {
    const { auth } = await setUp();
    expectError(
      await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', 'cc-1').send({ customer_code: 'Z1', create_customer: { name: 'Zed' }, plan_code: 'flat' }),
      403,
      'permission_error',
      'accounting_contact_creation_disabled',
    );
  });
});
