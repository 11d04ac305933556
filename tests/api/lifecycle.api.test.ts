import request from 'supertest';
import { changeUnits } from '../../commands/subscription/change-units';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { billingOrganisation } from '../support/catalogue-fixtures';
import { accountingControl, createKey } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

describe('subscription lifecycle: unit changes, credit notes, end and restore', () => {
  // 10:00 UTC on 15 March 2026 (GMT in Europe/London): a monthly subscription starting today runs
  // its first period from 2026-03-15 to 2026-04-15, 31 days.
  const start = new Date('2026-03-15T10:00:00.000Z');
  const clock = fixedClock(start);
  let service: TestService;
  let orgId: string;
  let tenantId: string;
  let auth: { Authorization: string };
  let keyId: string;
  let catalogue: Awaited<ReturnType<typeof billingOrganisation>>['catalogue'];
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('lifecycle'), { clock });
    ({ orgId, tenantId, auth, keyId, catalogue } = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read', 'customers:write']));
  });
  afterAll(async () => {
    await service.close();
  });
  afterEach(async () => {
    clock.set(start);
    await accountingControl(service, '/faults');
  });

  const subscribe = async (body: object = { plan_code: 'seats', units: 5 }) => {
    const response = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `sub-${++n}`).send({ customer_code: 'C1', ...body });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return response.body as { id: string; invoice: { id: string; accounting: { invoice_id: string } } };
  };
  const post = (id: string, action: 'units' | 'end' | 'restore', body: object, key?: string) => {
    const call = request(service.app).post(`/v1/subscriptions/${id}/${action}`).set(auth);
    return (key ? call.set('Idempotency-Key', key) : call).send(body);
  };
  const ledger = () => service.services.accounting.tenant(tenantId).listUpdatedSince('1970-01-01T00:00:00.000Z');

  describe('POST /v1/subscriptions/{id}/units', () => {
    it('charges a prorated increase at once on an expansion invoice, then credits a decrease with a credit note', async () => {
      const sub = await subscribe();
      // seats: 10.0000 a seat, 1 free. 5 → 8 from 2026-03-25: 21 of the period's 31 days are left.
      // Whole-period prices: (5 − 1) × 10 = 40.0000 and (8 − 1) × 10 = 70.0000; 30 × 21 / 31 = 20.32258… → 20.3226
      const up = await post(sub.id, 'units', { units: 8, prorate: true, effective_date: '2026-03-25' });
      expect(up.status).toBe(200);
      expect(up.body).toMatchObject({ id: sub.id, units: 8, renewal_value: '70.0000', status: 'active' });
      const { invoice, ...change } = up.body.change;
      expect(change).toEqual({
        units: 8,
        previous_units: 5,
        prorate: true,
        proration_behaviour: 'charge_immediately',
        effective_date: '2026-03-25',
        document: null,
        credit_note: null,
      });
      expect(invoice).toMatchObject({
        subscription: sub.id,
        subtotal: '20.3226',
        // 10% tax on the accounting side: 20.3226 + 2.0323 = 22.3549
        total: '22.3549',
        status: 'draft',
        accounting: { sync_status: 'synced', sync_error: null },
      });
      expect(invoice.lines).toEqual([
        expect.objectContaining({ type: 'subscription', revenue_type: 'expansion', units: 8, amount: '20.3226', charge_amount: '20.3226', effective_date: '2026-03-25T00:00:00.000Z' }),
      ]);

      // 8 → 6 from 2026-04-01: 14 days left. The period's running total: 30 × 21 + (50 − 70) × 14 = 350
      // (×10⁴) over 31 days = 11.29032… → 11.2903; less the 20.3226 charged: −9.0323, a credit of 9.0323
      // (directly: 20 × 14 / 31 = 9.03225… → 9.0323, so no over-credit).
      const down = await post(sub.id, 'units', { units: 6, prorate: true, effective_date: '2026-04-01' });
      expect(down.status).toBe(200);
      expect(down.body.change.invoice).toBeNull();
      const creditNote = down.body.change.credit_note;
      expect(creditNote).toMatchObject({
        object: 'credit_note',
        customer: up.body.customer,
        subscription: sub.id,
        number: expect.stringMatching(/.+/),
        status: 'approved',
        subtotal: '9.0323',
        total: '9.9355',
        remaining_credit: '9.9355',
        // The first invoice is still a draft: the accounting system applies credit only to approved invoices.
        allocation_status: 'unallocated',
        allocations: [],
        accounting: { sync_status: 'synced', credit_note_id: expect.any(String), sync_error: null },
      });
      // Midnight of 1 April in London is 23:00 UTC the day before (summer time).
      expect(creditNote.lines).toEqual([
        { id: expect.any(String), name: 'Seats', description: expect.stringContaining('8 → 6 units'), amount: '9.0323', effective_date: '2026-03-31T23:00:00.000Z' },
      ]);
      expect((await ledger()).creditNotes.find((c) => c.id === creditNote.accounting.credit_note_id)).toMatchObject({ subtotal: '9.0323' });

      const read = await request(service.app).get(`/v1/credit_notes/${creditNote.id}`).set(auth);
      expect(read.body).toEqual(creditNote);
      for (const filter of [`subscription=${sub.id}`, `customer=${up.body.customer}`, 'status=approved']) {
        const list = await request(service.app).get(`/v1/credit_notes?${filter}`).set(auth);
        expect(list.body.data.map((c: { id: string }) => c.id)).toContain(creditNote.id);
      }
      const none = await request(service.app).get('/v1/credit_notes?status=paid').set(auth);
      expect(none.body.data).toEqual([]);
      expectError(await request(service.app).get('/v1/credit_notes/cn_missing').set(auth), 404, 'not_found', 'credit_note_not_found');
    });

    it('allocates the credit to the invoice it reduces once that invoice is approved', async () => {
      const sub = await subscribe();
      await accountingControl(service, `/tenants/${tenantId}/invoices/${sub.invoice.accounting.invoice_id}/approve`);
      // 5 → 3 for the whole period: (2 × 10) − (4 × 10) = −20 × 31/31, a credit of 20.0000 (22.0000 with tax).
      const down = await post(sub.id, 'units', { units: 3, prorate: true, effective_date: '2026-03-15' });
      expect(down.body.change.credit_note).toMatchObject({
        subtotal: '20.0000',
        total: '22.0000',
        remaining_credit: '0.0000',
        allocation_status: 'fully_allocated',
        status: 'paid',
        allocations: [{ id: expect.any(String), invoice: sub.invoice.id, amount: '22.0000', date: '2026-03-15T10:00:00.000Z', status: 'applied', accounting_sync_status: 'synced' }],
      });
      const invoice = await request(service.app).get(`/v1/invoices/${sub.invoice.id}`).set(auth);
      expect(invoice.body.credit_note_amount).toBe('22.0000');
    });

    it('keeps a credit note the accounting system refused as failed with its sync_error, answering 200', async () => {
      const sub = await subscribe();
      await accountingControl(service, '/faults', {
        kind: 'refuse',
        method: 'POST',
        pathPrefix: `/tenants/${tenantId}/credit_notes`,
        count: 1,
        status: 400,
        code: 'validation_failed',
        message: 'Credit notes are closed for this period.',
      });
      const down = await post(sub.id, 'units', { units: 4, prorate: true, effective_date: '2026-03-15' });
      expect(down.status).toBe(200);
      expect(down.body.change.credit_note).toMatchObject({
        status: 'not_in_external',
        number: null,
        subtotal: '10.0000',
        accounting: { sync_status: 'failed', credit_note_id: null, sync_error: expect.stringContaining('Credit notes are closed') },
      });
    });

    it('credits a volume plan crossing into a cheaper band although units went up (a yearly plan)', async () => {
      const sub = await subscribe({ plan_code: 'volume', units: 10 });
      // Volume, yearly 2026-03-15 to 2027-03-15 (365 days): 10 × 5 = 50.0000; 11 × 4 = 44.0000.
      // From 2026-09-15, 181 days left: −6 × 181 / 365 = −2.97534… → a credit of 2.9753.
      const response = await post(sub.id, 'units', { units: 11, prorate: true, effective_date: '2026-09-15' });
      expect(response.status).toBe(200);
      expect(response.body.change.invoice).toBeNull();
      expect(response.body.change.credit_note.subtotal).toBe('2.9753');
      expect(response.body.renewal_value).toBe('44.0000');
    });

    it('defers a prorated charge to the renewal invoice with charge_on_renewal, and takes an unprorated change at renewal', async () => {
      const sub = await subscribe();
      const deferred = await post(sub.id, 'units', { units: 7, prorate: true, proration_behaviour: 'charge_on_renewal', effective_date: '2026-04-10' });
      expect(deferred.status).toBe(200);
      expect(deferred.body.change).toMatchObject({ proration_behaviour: 'charge_on_renewal', invoice: null, credit_note: null });
      const later = await post(sub.id, 'units', { units: 3 });
      expect(later.body.change).toEqual({
        units: 3,
        previous_units: 7,
        prorate: false,
        proration_behaviour: null,
        effective_date: null,
        document: null,
        invoice: null,
        credit_note: null,
      });
      expect(later.body).toMatchObject({ units: 3, renewal_value: '20.0000' });
      const invoices = await request(service.app).get(`/v1/invoices?subscription=${sub.id}`).set(auth);
      expect(invoices.body.data).toHaveLength(1);
    });

    it.each([
      [{ units: 2.5 }, 'units_invalid', 'units'],
      [{ units: '5' }, 'units_invalid', 'units'],
      [{ units: -1 }, 'units_invalid', 'units'],
      [{ units: 1_000_000_000 }, 'units_invalid', 'units'],
      [{ units: 1 }, 'units_below_minimum', 'units'],
      [{ units: 5 }, 'units_unchanged', 'units'],
      [{ units: 6, prorate: true }, 'effective_date_required', 'effective_date'],
      [{ units: 6, prorate: true, effective_date: '2026-04-15' }, 'effective_date_out_of_period', 'effective_date'],
      [{ units: 6, prorate: true, effective_date: '2026-03-14' }, 'effective_date_out_of_period', 'effective_date'],
      [{ units: 6, proration_behaviour: 'charge_immediately' }, 'proration_behaviour_not_applicable', 'proration_behaviour'],
      [{ units: 6, prorate: true, effective_date: '2026-03-20', document: 'separate' }, 'document_not_available', 'document'],
    ])('refuses %j with 422 %s', async (body, code, param) => {
      const sub = await subscribe();
      expectError(await post(sub.id, 'units', body), 422, 'invalid_request_error', code, param);
    });

    it('refuses units on a flat fee plan, an unknown or missing field, an unknown subscription, and an ended one', async () => {
      const flat = await subscribe({ plan_code: 'flat' });
      expectError(await post(flat.id, 'units', { units: 3 }), 422, 'invalid_request_error', 'plan_has_no_units', 'units');
      const sub = await subscribe();
      expectError(await post(sub.id, 'units', { units: 6, seats: 1 }), 422, 'invalid_request_error', 'invalid_parameter', 'seats');
      expectError(await post(sub.id, 'units', { prorate: false }), 422, 'invalid_request_error', 'invalid_parameter', 'units');
      expectError(await post('sub_missing', 'units', { units: 6 }), 404, 'not_found', 'subscription_not_found', 'id');
      expect((await post(sub.id, 'end', { when: 'now' })).status).toBe(200);
      expectError(await post(sub.id, 'units', { units: 6 }), 422, 'invalid_request_error', 'subscription_not_changeable');
    });

    it('refuses a change in Setup Mode with setup_mode_on, and ending now with invoice removal', async () => {
      const sub = await subscribe();
      const setup = (on: boolean) => request(service.app).patch(`/admin/v1/organisations/${orgId}`).set(service.admin).send({ setup_mode: on });
      expect((await setup(true)).status).toBe(200);
      try {
        expectError(await post(sub.id, 'units', { units: 6 }), 422, 'invalid_request_error', 'setup_mode_on');
        expectError(await post(sub.id, 'end', { when: 'now', delete_unsent_invoices: true }), 409, 'conflict', 'invalid_state');
      } finally {
        await setup(false);
      }
    });

    it('answers a replay from the stored response and raises no second invoice; a retry after a crash finishes without one', async () => {
      const sub = await subscribe();
      const body = { units: 9, prorate: true, effective_date: '2026-03-20' };
      const first = await post(sub.id, 'units', body, 'units-once');
      const before = (await ledger()).invoices.length;
      const replay = await post(sub.id, 'units', body, 'units-once');
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);

      // The change is recorded and its invoice pushed as the request would have, but no answer was stored.
      const crashed = { units: 12, prorate: true, effective_date: '2026-03-20' };
      const done = await changeUnits(
        service.services,
        { actor: { type: 'api_key', id: keyId }, requestId: 'req_crashed' },
        { organisationId: orgId, apiKeyId: keyId, idempotencyKey: 'units-crash' },
        sub.id,
        { units: 12, prorate: true, prorationBehaviour: null, effectiveDate: '2026-03-20', document: null },
      );
      const retried = await post(sub.id, 'units', crashed, 'units-crash');
      expect(retried.status).toBe(200);
      expect(retried.body.change.invoice.id).toBe(done.change.invoiceId);
      expect((await ledger()).invoices).toHaveLength(before + 1);
      const invoices = await request(service.app).get(`/v1/invoices?subscription=${sub.id}`).set(auth);
      expect(invoices.body.data).toHaveLength(3);
    });
  });

  describe('POST /v1/subscriptions/{id}/end and /restore', () => {
    it('ends at period end (cancel_at_period_end, end_date the renewal date) and restores it', async () => {
      const sub = await subscribe();
      for (const option of ['delete_unsent_invoices', 'void_approved_invoices', 'invoice_usage_now']) {
        expectError(await post(sub.id, 'end', { when: 'period_end', [option]: true }), 422, 'invalid_request_error', 'invalid_parameter', option);
      }
      const ended = await post(sub.id, 'end', { when: 'period_end' });
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ status: 'active', cancel_at_period_end: true, end_date: '2026-04-15', renewal_date: '2026-04-15' });
      expectError(await post(sub.id, 'end', { when: 'period_end' }), 409, 'conflict', 'invalid_state');
      const restored = await post(sub.id, 'restore', {});
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ status: 'active', cancel_at_period_end: false, end_date: null, renewal_date: '2026-04-15' });
      expectError(await post(sub.id, 'restore', {}), 409, 'conflict', 'invalid_state');
    });

    it('ends now, accepting invoice_usage_now, and restores before the renewal date with the renewal date unchanged', async () => {
      const sub = await subscribe();
      const ended = await post(sub.id, 'end', { when: 'now', invoice_usage_now: true });
      expect(ended.body).toMatchObject({ status: 'ended', end_date: '2026-03-15', cancel_at_period_end: false });
      expectError(await post(sub.id, 'end', { when: 'now' }), 409, 'conflict', 'invalid_state');
      const restored = await post(sub.id, 'restore', {});
      expect(restored.body).toMatchObject({ status: 'active', end_date: null, renewal_date: '2026-04-15' });
    });

    it('keeps billed the charges a renewal invoice would have billed: ending does not credit the current period', async () => {
      const sub = await subscribe();
      // 5 → 8 from 25 Mar, charged on renewal: (70 − 40) × 21 / 31 = 20.3226, left for the renewal invoice.
      expect((await post(sub.id, 'units', { units: 8, prorate: true, proration_behaviour: 'charge_on_renewal', effective_date: '2026-03-25' })).body.change).toMatchObject({ invoice: null });
      // The end answers once the invoice keeping it billed is pushed.
      expect((await post(sub.id, 'end', { when: 'period_end' })).status).toBe(200);
      const invoices = (await request(service.app).get(`/v1/invoices?subscription=${sub.id}`).set(auth)).body.data as { id: string; subtotal: string; lines: { revenue_type: string; amount: string }[]; accounting: { sync_status: string } }[];
      const kept = invoices.filter((invoice) => invoice.id !== sub.invoice.id);
      expect(kept).toEqual([expect.objectContaining({ subtotal: '20.3226', lines: [expect.objectContaining({ revenue_type: 'expansion', amount: '20.3226' })], accounting: expect.objectContaining({ sync_status: 'synced' }) })]);
      // Recorded with the end, it leaves the charges waiting for a renewal invoice (tests/domain/lifecycle.unit.test.ts).
      const history = await request(service.app).get(`/admin/v1/organisations/${orgId}/streams/${sub.id}/events`).set(service.admin);
      expect((history.body.data as { type: string; data: { carriedCharges?: unknown } }[]).find((e) => e.type === 'SubscriptionEndScheduled')?.data.carriedCharges).toMatchObject({
        fromInvoiceId: null,
        adjustments: [expect.objectContaining({ amount: '20.3226' })],
      });
    });

    it('restores only while the customer is active and the plan active or legacy', async () => {
      const sub = await subscribe();
      const customer = (await request(service.app).get(`/v1/subscriptions/${sub.id}`).set(auth)).body.customer as string;
      const admin = (path: string, body: object) => request(service.app).patch(`/admin/v1/organisations/${orgId}/${path}`).set(service.admin).send(body);
      const plan = `plans/${catalogue.plans.per_unit!.id}`;
      await post(sub.id, 'end', { when: 'now' });
      try {
        expect((await admin(plan, { status: 'inactive' })).status).toBe(200);
        expectError(await post(sub.id, 'restore', {}), 409, 'conflict', 'invalid_state');
        expect((await admin(`customers/${customer}`, { status: 'inactive' })).status).toBe(200);
        await admin(plan, { status: 'legacy' });
        expectError(await post(sub.id, 'restore', {}), 409, 'conflict', 'invalid_state');
        await admin(`customers/${customer}`, { status: 'active' });
        expect((await post(sub.id, 'restore', {})).body.status).toBe('active');
      } finally {
        await admin(plan, { status: 'active' });
        await admin(`customers/${customer}`, { status: 'active' });
      }
    });

    it('refuses to restore after the renewal date has passed', async () => {
      const sub = await subscribe();
      await post(sub.id, 'end', { when: 'now' });
      clock.set(new Date('2026-04-15T10:00:00.000Z'));
      expectError(await post(sub.id, 'restore', {}), 409, 'conflict', 'invalid_state');
    });

    it('removes invoices one at a time: a refusal part-way keeps the subscription running and the removed invoice removed', async () => {
      const sub = await subscribe();
      const change = await post(sub.id, 'units', { units: 8, prorate: true, effective_date: '2026-03-20' });
      const second = change.body.change.invoice;
      await accountingControl(service, '/faults', {
        kind: 'refuse',
        method: 'POST',
        pathPrefix: `/tenants/${tenantId}/invoices/${second.accounting.invoice_id}/delete`,
        count: 1,
        status: 409,
        code: 'invalid_state',
        message: 'The invoice is locked.',
      });
      const refused = await post(sub.id, 'end', { when: 'now', delete_unsent_invoices: true });
      expectError(refused, 409, 'conflict', 'invalid_state');
      const read = async (id: string) => (await request(service.app).get(`/v1/invoices/${id}`).set(auth)).body.status;
      expect(await read(sub.invoice.id)).toBe('deleted');
      expect(await read(second.id)).toBe('draft');
      expect((await request(service.app).get(`/v1/subscriptions/${sub.id}`).set(auth)).body.status).toBe('active');

      const retried = await post(sub.id, 'end', { when: 'now', delete_unsent_invoices: true }, 'end-retry');
      expect(retried.body.status).toBe('ended');
      expect(await read(second.id)).toBe('deleted');
      const replay = await post(sub.id, 'end', { when: 'now', delete_unsent_invoices: true }, 'end-retry');
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(retried.body);
    });

    it('ends after the organisation moved to another accounting organisation, deleting there only what the one in use holds (found by the fuzz suite)', async () => {
      const moved = await billingOrganisation(service, ['subscriptions:write', 'invoices:read', 'customers:write']);
      const created = await request(service.app).post('/v1/subscriptions').set(moved.auth).set('Idempotency-Key', 'moved-1').send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
      expect(created.status).toBe(201);
      const admin = `/admin/v1/organisations/${moved.orgId}/accounting`;
      expect((await request(service.app).post(`${admin}/disconnect`).set(service.admin).send({})).status).toBe(200);
      expect((await request(service.app).post(`${admin}/connect`).set(service.admin).send({})).body.tenant_id).not.toBe(moved.tenantId);
      const ended = await request(service.app).post(`/v1/subscriptions/${created.body.id}/end`).set(moved.auth).send({ when: 'now', delete_unsent_invoices: true });
      expect(ended.status).toBe(200);
      expect(ended.body.status).toBe('ended');
      // The first invoice went to the accounting organisation used before: it is removed here, and nothing is asked of the one in use.
      expect((await request(service.app).get(`/v1/invoices/${created.body.invoice.id}`).set(moved.auth)).body.status).toBe('deleted');
    });

    it('voids approved unpaid invoices when asked', async () => {
      const sub = await subscribe();
      await accountingControl(service, `/tenants/${tenantId}/invoices/${sub.invoice.accounting.invoice_id}/approve`);
      const ended = await post(sub.id, 'end', { when: 'now', void_approved_invoices: true });
      expect(ended.body.status).toBe('ended');
      expect((await request(service.app).get(`/v1/invoices/${sub.invoice.id}`).set(auth)).body.status).toBe('voided');
    });

    it('needs credit_notes:read to read credit notes', async () => {
      const other = await createKey(service, orgId, ['subscriptions:read']);
      expectError(await request(service.app).get('/v1/credit_notes').set(other.auth), 403, 'permission_error', 'insufficient_scope');
    });
  });
});
