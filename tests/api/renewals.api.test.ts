import pino from 'pino';
import request from 'supertest';
import { awaitSync } from '../../commands/accounting/await-sync';
import { fixedClock } from '../../infra/clock/clock';
import { workerDeps } from '../../service/services';
import { scheduler } from '../../workers/scheduler';
import { expectError } from '../support/api-assertions';
import { billingOrganisation } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

type Invoice = { id: string; subtotal: string; total: string; lines: { revenue_type: string; units: number | null; amount: string }[]; accounting: { invoice_id: string; sync_status: string } };

/**
 * Renewal invoices raised by the real-time scheduler in a live organisation, and what a unit change
 * does once one exists: `proration_required`, `document: amend` rewriting it (in the accounting system
 * too), `separate`, and `amend` refused once it is approved.
 */
describe('renewal invoices and unit changes after them', () => {
  // 10:00 UTC on 15 March 2026 (GMT): monthly seats from 15 Mar, the period 15 Mar – 15 Apr (31 days).
  const start = new Date('2026-03-15T10:00:00.000Z');
  const clock = fixedClock(start);
  let service: TestService;
  let tenantId: string;
  let auth: { Authorization: string };
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('renewals'), { clock });
    ({ tenantId, auth } = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read', 'customers:write']));
  });
  afterAll(async () => {
    await service.close();
  });

  /** A seats subscription (10.0000 a seat, 1 free) of 5 seats from 15 Mar, and its renewal invoice raised on 8 Apr by the scheduler. */
  const renewing = async () => {
    clock.set(start);
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `renew-${++n}`).send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    await service.services.projections.waitFor(await service.services.store.headPosition());
    // 15 Apr − 7 days = 8 Apr.
    clock.set(new Date('2026-04-08T09:00:00.000Z'));
    // Two schedulers at once, then a third run: one renewal invoice.
    const deps = workerDeps(service.services);
    await Promise.all([scheduler(deps, { intervalSeconds: 60 }).run(), scheduler(deps, { intervalSeconds: 60 }).run()]);
    await scheduler(deps, { intervalSeconds: 60 }).run();
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const raised = await renewalInvoices(id);
    expect(raised).toHaveLength(1);
    // The scheduler only raises it: the accounting sync worker pushes it, and this waits for that as a request would.
    await service.services.projections.waitFor(await awaitSync(service.services.store, 0n, { invoiceIds: [raised[0]!.id] }, 20_000));
    const renewals = await renewalInvoices(id);
    expect(renewals).toEqual([expect.objectContaining({ id: raised[0]!.id, accounting: expect.objectContaining({ sync_status: 'synced' }) })]);
    return { id, renewal: renewals[0]! };
  };
  const renewalInvoices = async (subscriptionId: string): Promise<Invoice[]> =>
    ((await request(service.app).get(`/v1/invoices?subscription=${subscriptionId}`).set(auth)).body.data as Invoice[]).filter((i) => i.lines.some((l) => l.revenue_type === 'renewal'));
  const units = (id: string, body: object) => request(service.app).post(`/v1/subscriptions/${id}/units`).set(auth).send(body);

  it('raises the renewal invoice 7 days ahead, once, whatever the number of schedulers, and the worker pushes it', async () => {
    const { renewal } = await renewing();
    expect(renewal.lines).toEqual([expect.objectContaining({ revenue_type: 'renewal', units: 5, amount: '40.0000' })]);
    const ledger = await service.services.accounting.tenant(tenantId).getInvoice(renewal.accounting.invoice_id);
    expect(ledger.status).toBe('draft');
  });

  it('once the renewal invoice exists, a decrease must be prorated (proration_required) and document is accepted', async () => {
    const { id } = await renewing();
    expectError(await units(id, { units: 3 }), 422, 'invalid_request_error', 'proration_required', 'prorate');
    const separate = await units(id, { units: 6, prorate: true, effective_date: '2026-04-08' });
    expect(separate.status).toBe(200);
    // The organisation's unit_change_document is separate: an invoice now. 7 of 31 days left: 10.0000 × 7 / 31 = 2.2580… → 2.2581;
    // and the next period's sixth seat, which the renewal invoice (5 seats) does not bill: 10.0000. Subtotal 12.2581.
    expect(separate.body.change).toMatchObject({ document: 'separate', invoice: { subtotal: '12.2581' } });
  });

  it('document: amend rewrites the renewal invoice, here and in the accounting system: 8 seats next period and the prorated increase', async () => {
    const { id, renewal } = await renewing();
    const amended = await units(id, { units: 8, prorate: true, effective_date: '2026-04-08', document: 'amend' });
    expect(amended.status).toBe(200);
    expect(amended.body.change).toMatchObject({ document: 'amend', invoice: null });
    // Next period at 8 seats: (8 − 1) × 10 = 70.0000. This period: (70 − 40) × 7 / 31 = 6.77419… → 6.7742. Subtotal 76.7742.
    const [rewritten] = await renewalInvoices(id);
    expect(rewritten!.id).toBe(renewal.id);
    expect(rewritten!.lines.map((l) => [l.revenue_type, l.units, l.amount])).toEqual([
      ['renewal', 8, '70.0000'],
      ['expansion', 8, '6.7742'],
    ]);
    expect(rewritten!.subtotal).toBe('76.7742');
    const ledger = await service.services.accounting.tenant(tenantId).getInvoice(renewal.accounting.invoice_id);
    expect(ledger.lines.map((l) => l.lineAmount)).toEqual(['70.0000', '6.7742']);
    expect(ledger.subtotal).toBe('76.7742');
    // Billed on the amended invoice, the increase is not carried to the next renewal invoice.
    clock.set(new Date('2026-04-15T09:00:00.000Z'));
    await scheduler(workerDeps(service.services), { intervalSeconds: 60 }).run();
    clock.set(new Date('2026-05-08T09:00:00.000Z'));
    await scheduler(workerDeps(service.services), { intervalSeconds: 60 }).run();
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const next = (await renewalInvoices(id)).find((invoice) => invoice.id !== renewal.id);
    expect(next!.lines.map((l) => [l.revenue_type, l.units, l.amount])).toEqual([['renewal', 8, '70.0000']]);
  });

  it('document: amend without proration rewrites the next period at the new units and charges nothing now', async () => {
    const { id, renewal } = await renewing();
    const amended = await units(id, { units: 7, document: 'amend' });
    expect(amended.status).toBe(200);
    expect(amended.body.change).toMatchObject({ document: 'amend', invoice: null });
    // (7 − 1) × 10.0000 = 60.0000 for the period from 15 Apr; no expansion line.
    const [rewritten] = await renewalInvoices(id);
    expect(rewritten!.id).toBe(renewal.id);
    expect(rewritten!.lines.map((l) => [l.revenue_type, l.units, l.amount])).toEqual([['renewal', 7, '60.0000']]);
  });

  it('refuses document: amend once the renewal invoice is approved', async () => {
    const { id, renewal } = await renewing();
    await accountingControl(service, `/tenants/${tenantId}/invoices/${renewal.accounting.invoice_id}/approve`);
    expectError(await units(id, { units: 8, prorate: true, effective_date: '2026-04-08', document: 'amend' }), 422, 'invalid_request_error', 'document_not_available', 'document');
  });

  it('withholds a CPI uplift that would bill the renewal past the largest amount, and says why in the history; the others rise', async () => {
    clock.set(start);
    const org = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write']);
    expect((await request(service.app).post(`/admin/v1/organisations/${org.orgId}/cpi`).set(service.admin).send({ year: 2026, percent: '0.01' })).status).toBe(201);
    const subscribe = async (body: object) => {
      const created = await request(service.app).post('/v1/subscriptions').set(org.auth).set('Idempotency-Key', `cpi-limit-${++n}`).send({ customer_code: 'C1', plan_code: 'flat', cpi_enabled: true, ...body });
      expect(created.status).toBe(201);
      return (created.body as { id: string }).id;
    };
    const atLimit = await subscribe({ flat_fee_price: '999999999999.0000' });
    const ordinary = await subscribe({});
    clock.set(new Date('2026-04-08T09:00:00.000Z'));
    const logged: { level: number; msg: string; subscriptionId?: string; reason?: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    await scheduler({ ...workerDeps(service.services), logger }, { intervalSeconds: 60 }).run();
    // Operators see it in the log too, as a warning.
    expect(logged.filter((line) => line.msg.startsWith('CPI uplift withheld'))).toEqual([expect.objectContaining({ level: 40, subscriptionId: atLimit })]);
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const renewalOf = async (id: string) => {
      const invoices = ((await request(service.app).get(`/v1/invoices?subscription=${id}`).set(org.auth)).body.data as Invoice[]).filter((i) => i.lines.some((l) => l.revenue_type === 'renewal'));
      expect(invoices).toHaveLength(1);
      return invoices[0]!;
    };
    // 999,999,999,999.0000 × 1.0001 would be 1,000,099,999,998.9999; 49.99 × 1.0001 = 49.994999 → 49.9950.
    expect((await renewalOf(atLimit)).subtotal).toBe('999999999999.0000');
    expect((await renewalOf(ordinary)).subtotal).toBe('49.9950');
    const history = await request(service.app).get(`/admin/v1/organisations/${org.orgId}/streams/${atLimit}/events`).set(service.admin);
    expect(history.status).toBe(200);
    expect((history.body.data as { type: string; data: object }[]).find((e) => e.type.startsWith('SubscriptionCpi'))).toEqual(
      expect.objectContaining({
        type: 'SubscriptionCpiUpliftWithheld',
        data: {
          subscriptionId: atLimit,
          periodStart: '2026-04-15',
          year: 2026,
          percent: '0.01',
          reason: 'The CPI uplift of 0.01% makes a price of 1000099999998.9999; the most is 999999999999.9999.',
        },
      }),
    );
  });

  it('withholds a CPI uplift that would take the usage already recorded for the next period past the largest amount', async () => {
    clock.set(start);
    const org = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'customers:write', 'usage:write']);
    expect((await request(service.app).post(`/admin/v1/organisations/${org.orgId}/cpi`).set(service.admin).send({ year: 2026, percent: '1' })).status).toBe(201);
    const created = await request(service.app).post('/v1/subscriptions').set(org.auth).set('Idempotency-Key', `cpi-usage-${++n}`).send({ customer_code: 'C1', plan_code: 'metered', cpi_enabled: true });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    // 285,000,000,000 GB at 3.5000 (the volume band past 20) bill 997,500,000,000.0000 in the period from 15 Apr; 1 % more would be 1,007,475,000,000.0000.
    const usage = await request(service.app)
      .post('/v1/usage_events')
      .set(org.auth)
      .send({ events: [{ event_id: 'ahead-1', subscription: id, meter_code: 'storage_gb', quantity: '285000000000', timestamp: '2026-04-20T00:00:00.000Z' }] });
    expect(usage.status).toBe(200);
    expect(usage.body.results).toEqual([{ event_id: 'ahead-1', status: 'created' }]);
    clock.set(new Date('2026-04-08T09:00:00.000Z'));
    await scheduler(workerDeps(service.services), { intervalSeconds: 60 }).run();
    const history = await request(service.app).get(`/admin/v1/organisations/${org.orgId}/streams/${id}/events`).set(service.admin);
    expect((history.body.data as { type: string; data: { reason?: string } }[]).filter((e) => e.type.startsWith('SubscriptionCpi'))).toEqual([
      expect.objectContaining({
        type: 'SubscriptionCpiUpliftWithheld',
        data: expect.objectContaining({ reason: 'The CPI uplift of 1.00% takes the usage charges of the period from 2026-04-15 to 1007475000000.0000; the most is 999999999999.9999.' }),
      }),
    ]);
  });

  it('refuses an amendment whose renewal line, beside the lines the renewal invoice keeps, would pass the largest amount', async () => {
    clock.set(start);
    const org = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'customers:write', 'invoices:read']);
    const plan = { code: 'dear', name: 'Dear seats', type: 'per_unit', interval: { unit: 'month' }, currency: 'GBP', price: '1000000000', status: 'active' };
    expect((await request(service.app).post(`/admin/v1/organisations/${org.orgId}/plans`).set(service.admin).send(plan)).status).toBe(201);
    const created = await request(service.app).post('/v1/subscriptions').set(org.auth).set('Idempotency-Key', `dear-${++n}`).send({ customer_code: 'C1', plan_code: 'dear', units: 5 });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const change = (body: object) => request(service.app).post(`/v1/subscriptions/${id}/units`).set(org.auth).send(body);
    // 395 more seats from 24 Mar, 22 of 31 days, carried to the renewal invoice: 280,322,580,645.1613.
    expect((await change({ units: 400, prorate: true, effective_date: '2026-03-24', proration_behaviour: 'charge_on_renewal' })).status).toBe(200);
    clock.set(new Date('2026-04-08T09:00:00.000Z'));
    await scheduler(workerDeps(service.services), { intervalSeconds: 60 }).run();
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const renewal = ((await request(service.app).get(`/v1/invoices?subscription=${id}`).set(org.auth)).body.data as Invoice[]).find((i) => i.lines.some((l) => l.revenue_type === 'renewal'));
    expect(renewal!.lines.map((l) => [l.revenue_type, l.amount])).toEqual([['renewal', '400000000000.0000'], ['expansion', '280322580645.1613']]);
    // 750 seats alone fit; beside the carried 280,322,580,645.1613 they do not. 700 do.
    expectError(await change({ units: 750, document: 'amend' }), 422, 'invalid_request_error', 'invalid_parameter', 'units');
    expect((await change({ units: 700, document: 'amend' })).status).toBe(200);
  });

  it('changes units after the organisation moved to another accounting organisation, asking that one nothing of the renewal invoice the one before holds (issue 43: 502 accounting_error)', async () => {
    clock.set(start);
    const org = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'customers:write', 'invoices:read']);
    const patched = await request(service.app).patch(`/admin/v1/organisations/${org.orgId}`).set(service.admin).send({ unit_change_document: 'amend' });
    expect(patched.status).toBe(200);
    const created = await request(service.app).post('/v1/subscriptions').set(org.auth).set('Idempotency-Key', `moved-${++n}`).send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    await service.services.projections.waitFor(await service.services.store.headPosition());
    clock.set(new Date('2026-04-08T09:00:00.000Z'));
    await scheduler(workerDeps(service.services), { intervalSeconds: 60 }).run();
    await service.services.projections.waitFor(await service.services.store.headPosition());
    const invoicesOf = async () => (await request(service.app).get(`/v1/invoices?subscription=${id}`).set(org.auth)).body.data as Invoice[];
    const renewal = (await invoicesOf()).find((i) => i.lines.some((l) => l.revenue_type === 'renewal'))!;
    await service.services.projections.waitFor(await awaitSync(service.services.store, 0n, { invoiceIds: [renewal.id] }, 20_000));
    expect((await request(service.app).post(`/admin/v1/organisations/${org.orgId}/accounting/disconnect`).set(service.admin).send({})).status).toBe(200);
    const moved = await connectAccounting(service, org.orgId);
    expect(moved).not.toBe(org.tenantId);
    const change = (body: object) => request(service.app).post(`/v1/subscriptions/${id}/units`).set(org.auth).send(body);

    // The request: 502 accounting_error ("No invoice ai_…") before, asked of the accounting organisation in use.
    expectError(await change({ units: 18, prorate: true, proration_behaviour: 'charge_on_renewal' }), 422, 'invalid_request_error', 'effective_date_required', 'effective_date');
    // The renewal invoice can be changed only where it is: amend is refused saying why, and the organisation's amend default bills separately.
    const amend = await change({ units: 8, document: 'amend' });
    expectError(amend, 422, 'invalid_request_error', 'document_not_available', 'document');
    expect(amend.body.error.message).toBe('The renewal invoice is in an accounting organisation this organisation no longer uses, where it cannot be changed. Send document: separate.');
    // 5 → 8 from 8 Apr, 7 of 31 days: 30 × 7 / 31 = 6.7742, and the next period's 30.0000, on a separate invoice.
    const changed = await change({ units: 8, prorate: true, effective_date: '2026-04-08' });
    expect(changed.status).toBe(200);
    expect(changed.body.change).toMatchObject({ document: 'separate', invoice: { subtotal: '36.7742', accounting: { sync_status: 'synced' } } });
    // It went to the accounting organisation in use, under the customer's contact there (found or made on its first document there).
    const ledger = service.services.accounting.tenant(moved);
    const held = await ledger.getInvoice(changed.body.change.invoice.accounting.invoice_id as string);
    expect(held).toMatchObject({ subtotal: '36.7742', contactId: (await ledger.findContactByNumber('C1'))!.id });
  });

  it('records CPI with the admin API’s validation: 201, or 422 naming the field', async () => {
    const { orgId } = await billingOrganisation(service, ['subscriptions:read']);
    const cpi = (body: object) => request(service.app).post(`/admin/v1/organisations/${orgId}/cpi`).set(service.admin).send(body);
    const recorded = await cpi({ year: 2026, percent: 3.1 });
    expect(recorded.status).toBe(201);
    expect(recorded.body).toEqual({ object: 'cpi', organisation: orgId, year: 2026, percent: '3.10' });
    expectError(await cpi({ year: 2026, percent: '3.123' }), 422, 'invalid_request_error', 'invalid_parameter', 'percent');
    expectError(await cpi({ year: '2026', percent: '3' }), 422, 'invalid_request_error', 'invalid_parameter', 'year');
    expectError(await cpi({ percent: '3' }), 422, 'invalid_request_error', 'invalid_parameter', 'year');
    expectError(await cpi({ year: 2026, percent: '3', extra: 1 }), 422, 'invalid_request_error', 'invalid_parameter', 'extra');
    expectError(await request(service.app).post('/admin/v1/organisations/org_nothing/cpi').set(service.admin).send({ year: 2026, percent: '3' }), 404, 'not_found', 'organisation_not_found');
  });
});
