import request from 'supertest';
import { importCustomer } from '../../commands/customer/import-customer';
import { loadOpenOrganisation } from '../../commands/plumbing/load-open-organisation';
import { resetSandbox } from '../../commands/sandbox/reset-sandbox';
import { changeUnits } from '../../commands/subscription/change-units';
import { runScheduledStep } from '../../commands/subscription/run-scheduled-step';
import { billUsagePeriod } from '../../commands/usage/bill-usage-period';
import { recordUsage } from '../../commands/usage/record-usage';
import { fixedClock } from '../../infra/clock/clock';
import { allProjections } from '../../projections/read-models/all';
import { expectError } from '../support/api-assertions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

type Listed = { data: { id: string; code?: string }[] };

describe('POST /admin/v1/organisations/{sandbox}/reset', () => {
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  let service: TestService;
  let liveId: string;
  let sandboxId: string;
  let live: { Authorization: string };
  let test: { Authorization: string };
  let testKeyId: string;
  const everyScope = ['customers:read', 'customers:write', 'catalogue:read', 'subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read', 'usage:write'];

  beforeAll(async () => {
    service = await startTestService(tempDir('sandbox-reset'), { clock, resolver: (host) => Promise.resolve(host === 'hooks.example.com' ? ['93.184.216.34'] : null) });
    liveId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
    await connectAccounting(service, liveId);
    await defineCatalogue(service, liveId);
    live = (await createKey(service, liveId, everyScope)).auth;
    expect((await request(service.app).post('/v1/customers').set(live).send({ code: 'LIVE-1', name: 'Live One', email: 'ap@live.example' })).status).toBe(201);
    const opened = await request(service.app).post(`/admin/v1/organisations/${liveId}/sandbox`).set(service.admin).send({});
    expect(opened.status).toBe(201);
    sandboxId = opened.body.id;
    await connectAccounting(service, sandboxId);
    ({ auth: test, id: testKeyId } = await createKey(service, sandboxId, everyScope));
  });
  afterAll(async () => {
    await service.close();
  });

  const app = () => request(service.app);
  const reset = (copy?: object) => app().post(`/admin/v1/organisations/${sandboxId}/reset`).set(service.admin).send(copy ? { copy } : {});
  const list = async (path: string, auth = test) => {
    const response = await app().get(`${path}${path.includes('?') ? '&' : '?'}limit=100`).set(auth);
    expect(response.status).toBe(200);
    return (response.body as Listed).data;
  };
  const subscribe = (key: string, body: object = {}) =>
    app().post('/v1/subscriptions').set(test).set('Idempotency-Key', key).send({ customer_code: 'SBX-1', plan_code: 'metered', ...body });
  const resetEvents = async () => (await service.services.store.readStream(`organisation-${sandboxId}`)).filter((e) => e.type === 'SandboxReset');

  it('copies the live settings and catalogue when opened (the defaults), not its customers', async () => {
    expect((await list('/v1/plans')).map((p) => p.code).sort()).toEqual(['flat', 'metered', 'seats', 'stairs', 'tiered', 'volume']);
    expect((await list('/v1/charges')).map((c) => c.code)).toEqual(['setup']);
    expect(await list('/v1/customers')).toEqual([]);
  });

  it('empties the sandbox, keeps what the document keeps, and lets keys, codes and event ids be used again', async () => {
    // The sandbox's own API settings, and one ordinary setting, differ from the live organisation's.
    await app().patch(`/admin/v1/organisations/${sandboxId}`).set(service.admin).send({ unit_change_document: 'amend', payment_terms_days: 30 });
    const endpoint = await app().post(`/admin/v1/organisations/${sandboxId}/webhook_endpoints`).set(service.admin).send({ url: 'https://hooks.example.com/x', events: ['*'] });
    expect(endpoint.status).toBe(201);

    const customer = await app().post('/v1/customers').set(test).set('Idempotency-Key', 'cus-key').send({ code: 'SBX-1', name: 'Sandbox One' });
    expect(customer.status).toBe(201);
    const first = await subscribe('K');
    expect(first.status).toBe(201);
    const oldSubscription: string = first.body.id;
    const oldInvoice: string = first.body.invoice.id;
    const oldPlans = (await list('/v1/plans')).map((p) => p.id);
    const usage = await app().post('/v1/usage_events').set(test).send({ events: [{ event_id: 'u-1', subscription: oldSubscription, meter_code: 'api_calls', quantity: '5' }] });
    expect(usage.body.results).toEqual([{ event_id: 'u-1', status: 'created' }]);
    expect(await list('/v1/invoices')).toHaveLength(1);

    const response = await reset();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: sandboxId, livemode: false, unit_change_document: 'amend', payment_terms_days: 14 });
    expect(response.body.accounting).toMatchObject({ connected: true, revenue_account: '200', usage_revenue_account: '270' });
    expect((await resetEvents()).map((e) => e.data)).toEqual([
      { organisationId: sandboxId, generation: 1, copy: { settings: true, catalogue: true, customers: false, subscriptions: false } },
    ]);

    // Removed, from every list and retrieval.
    expect(await list('/v1/customers')).toEqual([]);
    expect(await list('/v1/subscriptions')).toEqual([]);
    expect(await list('/v1/invoices')).toEqual([]);
    expect(await list('/v1/credit_notes')).toEqual([]);
    expectError(await app().get(`/v1/subscriptions/${oldSubscription}`).set(test), 404, 'not_found', 'subscription_not_found');
    expectError(await app().get(`/v1/invoices/${oldInvoice}`).set(test), 404, 'not_found', 'invoice_not_found');
    expectError(await app().get(`/v1/customers/${customer.body.id}`).set(test), 404, 'not_found', 'customer_not_found');
    // The catalogue is copied again from the live organisation, under new ids.
    const plans = await list('/v1/plans');
    expect(plans.map((p) => p.code).sort()).toEqual(['flat', 'metered', 'seats', 'stairs', 'tiered', 'volume']);
    expect(plans.filter((p) => oldPlans.includes(p.id))).toEqual([]);
    // Kept: the test key (every call above used it), the webhook endpoint, the accounting connection
    // (its deliveries go: tests/workers/webhooks.api.test.ts).
    const endpoints = await app().get(`/admin/v1/organisations/${sandboxId}/webhook_endpoints`).set(service.admin);
    expect(endpoints.body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.body.id]);

    // A removed subscription is gone for the commands too.
    expectError(await app().post(`/v1/subscriptions/${oldSubscription}/end`).set(test).send({ when: 'period_end' }), 404, 'not_found', 'subscription_not_found');
    const late = await app().post('/v1/usage_events').set(test).send({ events: [{ event_id: 'u-2', subscription: oldSubscription, meter_code: 'api_calls', quantity: '1' }] });
    expect(late.body.results).toEqual([{ event_id: 'u-2', status: 'rejected', error: expect.objectContaining({ code: 'subscription_not_found' }) }]);

    // The same Idempotency-Keys, code and event id make new objects.
    const again = await app().post('/v1/customers').set(test).set('Idempotency-Key', 'cus-key').send({ code: 'SBX-1', name: 'Sandbox One again' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(customer.body.id);
    const second = await subscribe('K');
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(oldSubscription);
    expect(second.body.invoice.id).not.toBe(oldInvoice);
    const reused = await app().post('/v1/usage_events').set(test).send({ events: [{ event_id: 'u-1', subscription: second.body.id, meter_code: 'api_calls', quantity: '9' }] });
    expect(reused.body.results).toEqual([{ event_id: 'u-1', status: 'created' }]);
    expect((await list('/v1/subscriptions')).map((s) => s.id)).toEqual([second.body.id]);

    // The history of what was removed stays readable.
    const history = await app().get(`/admin/v1/organisations/${sandboxId}/streams/${oldSubscription}/events`).set(service.admin);
    expect(history.status).toBe(200);
    expect(history.body.data[0]).toMatchObject({ type: 'SubscriptionCreated', data: { subscriptionId: oldSubscription } });

    // The live organisation is untouched.
    expect((await list('/v1/customers', live)).map((c) => c.code)).toEqual(['LIVE-1']);
    expect(await list('/v1/plans', live)).toHaveLength(6);
  });

  it('forgets the idempotency records of every sandbox key, and only those', async () => {
    const body = { code: 'IDEM-1', name: 'First' };
    expect((await app().post('/v1/customers').set(test).set('Idempotency-Key', 'idem').send(body)).status).toBe(201);
    expect((await app().post('/v1/customers').set(live).set('Idempotency-Key', 'idem').send(body)).status).toBe(201);
    expect((await reset()).status).toBe(200);
    // Another body under the same key: a conflict had the record survived.
    expect((await app().post('/v1/customers').set(test).set('Idempotency-Key', 'idem').send({ code: 'IDEM-2', name: 'Second' })).status).toBe(201);
    expectError(await app().post('/v1/customers').set(live).set('Idempotency-Key', 'idem').send({ code: 'IDEM-2', name: 'Second' }), 409, 'conflict', 'idempotency_conflict');
    expect(testKeyId).toMatch(/^key_/);
  });

  it('copies customers (names, email, code, no contact) when asked, and only what is ticked (customers need nothing)', async () => {
    const response = await reset({ settings: false, catalogue: false, customers: true });
    expect(response.status).toBe(200);
    expect((await resetEvents()).at(-1)?.data).toMatchObject({ copy: { settings: false, catalogue: false, customers: true, subscriptions: false } });
    const customers = await app().get('/v1/customers?limit=100').set(test);
    // The live organisation's two: its own and the one the idempotency test made.
    expect(customers.body.data.map((c: Record<string, unknown>) => [c.code, c.name, c.email, c.accounting_contact_id]).sort()).toEqual([
      ['IDEM-1', 'First', null, null],
      ['LIVE-1', 'Live One', 'ap@live.example', null],
    ]);
    expect(await list('/v1/plans')).toEqual([]);
    // Catalogue ticks settings.
    expect((await reset({ settings: false, catalogue: true })).status).toBe(200);
    expect((await resetEvents()).at(-1)?.data).toMatchObject({ copy: { settings: true, catalogue: true, customers: false, subscriptions: false } });
    expect(await list('/v1/plans')).toHaveLength(6);
  });

  it('copies nothing when nothing is ticked, and ticks everything for subscriptions', async () => {
    expect((await reset({ settings: false, catalogue: false, customers: false, subscriptions: false })).status).toBe(200);
    expect(await list('/v1/plans')).toEqual([]);
    expect(await list('/v1/charges')).toEqual([]);
    expect(await list('/v1/customers')).toEqual([]);
    expect((await reset({ settings: false, catalogue: false, customers: false, subscriptions: true })).status).toBe(200);
    expect((await resetEvents()).at(-1)?.data).toMatchObject({ copy: { settings: true, catalogue: true, customers: true, subscriptions: true } });
    expect(await list('/v1/plans')).toHaveLength(6);
    expect((await list('/v1/customers')).map((c) => c.code).sort()).toEqual(['IDEM-1', 'LIVE-1']);
    expect((await resetEvents()).map((e) => (e.data as { generation: number }).generation)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('copies the pending and active subscriptions, in the sandbox’s customers, plans and meters, without their invoices', async () => {
    const liveSub = await app().post('/v1/subscriptions').set(live).set('Idempotency-Key', 'live-sub').send({ customer_code: 'LIVE-1', plan_code: 'metered' });
    expect(liveSub.status).toBe(201);
    const changed = await app().post(`/v1/subscriptions/${liveSub.body.id}/end`).set(live).send({ when: 'period_end' });
    expect(changed.status).toBe(200);
    const ended = await app().post('/v1/subscriptions').set(live).set('Idempotency-Key', 'live-ended').send({ customer_code: 'LIVE-1', plan_code: 'flat' });
    expect((await app().post(`/v1/subscriptions/${ended.body.id}/end`).set(live).send({ when: 'now' })).status).toBe(200);

    expect((await reset({ subscriptions: true })).status).toBe(200);
    const [copied, ...more] = (await app().get('/v1/subscriptions').set(test)).body.data;
    expect(more).toEqual([]);
    const customers = await list('/v1/customers?code=LIVE-1');
    const plans = await list('/v1/plans?code=metered');
    expect(copied).toMatchObject({
      customer: customers[0]!.id,
      customer_code: 'LIVE-1',
      plan: plans[0]!.id,
      status: 'active',
      start_date: liveSub.body.start_date,
      renewal_date: liveSub.body.renewal_date,
      // Its end at period end is history, not a term: not copied.
      cancel_at_period_end: false,
      end_date: null,
      meters: (liveSub.body.meters as { meter_code: string }[]).map((m) => expect.objectContaining({ meter_code: m.meter_code })),
    });
    expect(copied.id).not.toBe(liveSub.body.id);
    const sandboxMeters = new Set((copied.meters as { meter: string }[]).map((m) => m.meter));
    expect((liveSub.body.meters as { meter: string }[]).filter((m) => sandboxMeters.has(m.meter))).toEqual([]);
    expect(await list('/v1/invoices')).toEqual([]);
    // Usage can be reported on the copy; the live organisation's usage was never copied.
    const usage = await app().post('/v1/usage_events').set(test).send({ events: [{ event_id: 'u-1', subscription: copied.id, meter_code: 'api_calls', quantity: '2' }] });
    expect(usage.body.results).toEqual([{ event_id: 'u-1', status: 'created' }]);

    // A copied customer gets its contact in the demonstration organisation on its first invoice,
    // created from its name and code, and keeps it.
    expect(customers[0]!).toMatchObject({ accounting_contact_id: null });
    const invoiced = await subscribe('after-copy', { customer_code: 'LIVE-1', plan_code: 'flat' });
    expect(invoiced.status).toBe(201);
    expect(invoiced.body.invoice).toMatchObject({ accounting: { sync_status: 'synced' } });
    const [linked] = await list('/v1/customers?code=LIVE-1');
    expect(linked).toMatchObject({ id: customers[0]!.id, accounting_contact_id: expect.any(String) });
    const again = await subscribe('after-copy-2', { customer_code: 'LIVE-1', plan_code: 'flat' });
    expect(again.body.invoice).toMatchObject({ accounting: { sync_status: 'synced' } });
    expect((await list('/v1/customers?code=LIVE-1'))[0]).toEqual(linked);
  });

  it('is refused while the sandbox clock is being advanced, and returns the clock to real time', async () => {
    const clocks = service.services.clocks;
    expect(clocks.beginAdvance(sandboxId)).toBe(true);
    try {
      expectError(await reset(), 409, 'conflict', 'invalid_state');
    } finally {
      clocks.endAdvance(sandboxId);
    }
    clocks.setTestClock(sandboxId, new Date('2026-06-01T12:00:00.000Z'));
    expect((await reset()).status).toBe(200);
    expect(clocks.testClock(sandboxId)).toBeNull();
  });

  it('is refused on a live organisation and on an unknown one', async () => {
    expectError(await app().post(`/admin/v1/organisations/${liveId}/reset`).set(service.admin).send({}), 422, 'invalid_request_error', 'invalid_parameter', 'org');
    expectError(await app().post('/admin/v1/organisations/org_nope/reset').set(service.admin).send({}), 404, 'not_found', 'organisation_not_found');
  });

  it('rebuilds the read models from the log to the very same documents after resets', async () => {
    const routes = ['/v1/customers', '/v1/subscriptions', '/v1/invoices', '/v1/plans', '/v1/charges'];
    const before = await Promise.all(routes.map((route) => list(route)));
    expect((await app().post('/admin/v1/projections/rebuild').set(service.admin).send({ verify: true })).status).toBe(202);
    await service.services.projections.rebuilt();
    const report = (await app().get('/admin/v1/projections/rebuild').set(service.admin)).body;
    expect(report).toMatchObject({ status: 'switched', projections: allProjections.map((p) => p.name), differences: [] });
    expect(await Promise.all(routes.map((route) => list(route)))).toEqual(before);
  });

  describe('beside writes to the sandbox', () => {
    /** Holds the first append to a stream whose id starts with `prefix` until released; `reached` settles when one waits. */
    const holdAppend = (prefix: string) => {
      const { store } = service.services;
      const append = store.append.bind(store);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const waiting = new Promise<void>((resolve) => (reached = resolve));
      let held = false;
      store.append = async (streamId, events, expected) => {
        if (!held && streamId.startsWith(prefix)) {
          held = true;
          reached();
          await released;
        }
        return append(streamId, events, expected);
      };
      return { waiting, release, restore: () => (store.append = append) };
    };
    /** Whether the request has been answered after a pause long enough for it to have been, were nothing holding it. */
    const answeredWithin = async (answered: () => boolean) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return answered();
    };

    it('waits for a write under way, then removes what it made', async () => {
      const hold = holdAppend('customer-');
      try {
        const creating = app().post('/v1/customers').set(test).send({ code: 'RACE-1', name: 'Under way' }).then((response) => response);
        await hold.waiting;
        let done = false;
        const resetting = reset().then((response) => ((done = true), response));
        expect(await answeredWithin(() => done)).toBe(false);
        hold.release();
        expect((await creating).status).toBe(201);
        expect((await resetting).status).toBe(200);
      } finally {
        hold.release();
        hold.restore();
      }
      expect((await list('/v1/customers')).map((c) => c.code)).not.toContain('RACE-1');
    });

    it('holds a write that comes during it until it is done: the write makes an object of the new generation', async () => {
      const hold = holdAppend(`organisation-${sandboxId}`);
      let created: request.Response;
      try {
        const resetting = reset().then((response) => response);
        await hold.waiting;
        let done = false;
        const creating = app().post('/v1/customers').set(test).send({ code: 'RACE-2', name: 'Meanwhile' }).then((response) => ((done = true), response));
        expect(await answeredWithin(() => done)).toBe(false);
        hold.release();
        expect((await resetting).status).toBe(200);
        created = await creating;
      } finally {
        hold.release();
        hold.restore();
      }
      expect(created.status).toBe(201);
      expect((await list('/v1/customers')).map((c) => c.code)).toContain('RACE-2');
    });

    describe('from another process (whose writes this one’s gate does not hold)', () => {
      /** As a request in another process would: the command itself, without this process's gate around it. */
      const elsewhere = () => ({ actor: { type: 'api_key' as const, id: testKeyId }, requestId: null });
      const sandbox = () => ({ id: sandboxId, livemode: false });

      it('shows nothing of a write decided in the generation before, landing after the reset, and a rebuild agrees', async () => {
        const hold = holdAppend('customer-');
        let made: { customerId: string; position: bigint };
        try {
          const creating = importCustomer(service.services, elsewhere(), sandbox(), { code: 'RACE-3', name: 'Elsewhere', firstName: null, lastName: null, email: null }, { requester: 'api' });
          await hold.waiting;
          expect((await reset()).status).toBe(200);
          hold.release();
          made = await creating;
        } finally {
          hold.release();
          hold.restore();
        }
        // It is in the log after the reset, written in the generation before it.
        const [resetEvent] = (await resetEvents()).slice(-1);
        const [late] = await service.services.store.readStream(`customer-${made.customerId}`);
        expect(late!.position).toBeGreaterThan(resetEvent!.position);
        expect(late!.metadata.resetGeneration).toBe((resetEvent!.data as { generation: number }).generation - 1);
        expect(await service.services.projections.waitFor(late!.position)).toBe(true);
        expect((await list('/v1/customers')).map((c) => c.code)).not.toContain('RACE-3');
        expect((await app().post('/admin/v1/projections/rebuild').set(service.admin).send({ verify: true })).status).toBe(202);
        await service.services.projections.rebuilt();
        expect((await app().get('/admin/v1/projections/rebuild').set(service.admin)).body).toMatchObject({ status: 'switched', differences: [] });
        expect((await list('/v1/customers')).map((c) => c.code)).not.toContain('RACE-3');
      });

      it('lets the new generation use an event id that a late usage batch of the generation before holds', async () => {
        // A sandbox with the live catalogue, and a customer SBX-1 to subscribe.
        expect((await reset({ catalogue: true })).status).toBe(200);
        const customer = () => app().post('/v1/customers').set(test).send({ code: 'SBX-1', name: 'Sandbox One' });
        expect((await customer()).status).toBe(201);
        const before = await subscribe('late-usage');
        expect(before.status).toBe(201);
        const hold = holdAppend('usage-');
        let late: Promise<unknown>;
        try {
          late = recordUsage(service.services, elsewhere(), sandbox(), [{ eventId: 'late-1', subscription: before.body.id, meterCode: 'api_calls', quantity: '1', timestamp: undefined }]);
          await hold.waiting;
          expect((await reset({ catalogue: true })).status).toBe(200);
          hold.release();
          expect(await late).toMatchObject({ outcomes: [{ status: 'created' }] });
        } finally {
          hold.release();
          hold.restore();
        }
        expect((await customer()).status).toBe(201);
        const after = await subscribe('late-usage');
        expect(after.status).toBe(201);
        expect(after.body.id).not.toBe(before.body.id);
        const sent = await app().post('/v1/usage_events').set(test).send({ events: [{ event_id: 'late-1', subscription: after.body.id, meter_code: 'api_calls', quantity: '2' }] });
        expect(sent.status).toBe(200);
        expect(sent.body.results).toEqual([{ event_id: 'late-1', status: 'created' }]);
      });

      describe('shows nothing of the documents a command decided in the generation before raises after the reset', () => {
        /** A sandbox emptied, with the live catalogue, a customer and a subscription made in its new generation. */
        const subscribed = async (key: string, body: object) => {
          expect((await reset({ catalogue: true })).status).toBe(200);
          expect((await app().post('/v1/customers').set(test).send({ code: 'SBX-1', name: 'Sandbox One' })).status).toBe(201);
          const created = await subscribe(key, body);
          expect(created.status).toBe(201);
          return created.body.id as string;
        };
        /**
         * Runs the command until it reaches its first append to a stream starting with `prefix`, resets the sandbox meanwhile,
         * then lets the append through: what the command answers (it fails, rather than waits for ever, should it end before).
         */
        const resetDuring = async <T>(prefix: string, command: () => Promise<T>): Promise<T> => {
          const hold = holdAppend(prefix);
          try {
            const running = command();
            await Promise.race([hold.waiting, running.then(() => Promise.reject(new Error('the command ended before the held append')))]);
            expect((await reset({ catalogue: true })).status).toBe(200);
            hold.release();
            return await running;
          } finally {
            hold.release();
            hold.restore();
          }
        };
        /** Once the read models have followed the log past `position`, the ids the sandbox lists of `path`. */
        const listedAfter = async (position: bigint, path: string) => {
          expect(await service.services.projections.waitFor(position)).toBe(true);
          return (await list(path)).map((document) => document.id);
        };

        it('a unit change’s invoice', async () => {
          const subscriptionId = await subscribed('ghost-units', { plan_code: 'seats', units: 2 });
          const changed = await resetDuring('subscription-', () =>
            changeUnits(service.services, elsewhere(), { organisationId: sandboxId, apiKeyId: testKeyId, idempotencyKey: 'ghost-units' }, subscriptionId, {
              units: 5,
              prorate: true,
              prorationBehaviour: null,
              effectiveDate: '2026-03-15',
              document: null,
            }),
          );
          expect(changed.change.invoiceId).not.toBeNull();
          expect(await listedAfter(changed.position, '/v1/invoices')).not.toContain(changed.change.invoiceId);
        });

        it('a usage period’s invoice', async () => {
          const subscriptionId = await subscribed('ghost-usage', {});
          const usage = await app().post('/v1/usage_events').set(test).send({ events: [{ event_id: 'ghost-1', subscription: subscriptionId, meter_code: 'api_calls', quantity: '5000' }] });
          expect(usage.body.results).toEqual([{ event_id: 'ghost-1', status: 'created' }]);
          // Ended now, its last period can be billed at once.
          expect((await app().post(`/v1/subscriptions/${subscriptionId}/end`).set(test).set('Idempotency-Key', 'ghost-end').send({ when: 'now' })).status).toBe(200);
          const billed = await resetDuring('usage-', () => billUsagePeriod(service.services, { organisationId: sandboxId, subscriptionId, periodStart: '2026-03-15' }, elsewhere()));
          expect(billed.invoiceId).not.toBeNull();
          expect(await listedAfter(billed.position, '/v1/invoices')).not.toContain(billed.invoiceId);
        });

        it('a renewal invoice, the step run by a scheduler that read the organisation before the reset', async () => {
          expect((await reset({ catalogue: true })).status).toBe(200);
          // A month's lead: the renewal invoice of a subscription made today is due at once.
          expect((await app().patch(`/admin/v1/organisations/${sandboxId}`).set(service.admin).send({ renewal_lead_days: 31 })).status).toBe(200);
          expect((await app().post('/v1/customers').set(test).send({ code: 'SBX-1', name: 'Sandbox One' })).status).toBe(201);
          const created = await subscribe('ghost-renewal', { plan_code: 'seats', units: 2 });
          expect(created.status).toBe(201);
          const read = await loadOpenOrganisation(service.services.store, sandboxId);
          expect((await reset({ catalogue: true })).status).toBe(200);
          const step = await runScheduledStep(service.services, { actor: { type: 'scheduler' }, requestId: null }, read, created.body.id, {
            kind: 'renewal_invoice',
            date: '2026-03-15',
            period: '2026-04-15',
          });
          const raised = step.events.find((event) => event.type === 'SubscriptionRenewalInvoiceRaised');
          expect(raised?.type).toBe('SubscriptionRenewalInvoiceRaised');
          if (raised?.type !== 'SubscriptionRenewalInvoiceRaised') return;
          expect(await listedAfter(step.position, '/v1/invoices')).not.toContain(raised.data.invoiceId);
        });
      });
    });
  });
});

describe('a sandbox reset interrupted after its event', () => {
  it('frees the sandbox keys’ Idempotency-Keys from the reset event itself: a crash before the records were forgotten leaves none reachable', async () => {
    const service = await startTestService(tempDir('sandbox-reset-crash'));
    try {
      const liveId = (await createOrganisation(service, { can_create_accounting_contacts: true })).id;
      const sandboxId = (await request(service.app).post(`/admin/v1/organisations/${liveId}/sandbox`).set(service.admin).send({})).body.id as string;
      await connectAccounting(service, sandboxId);
      const { auth: test } = await createKey(service, sandboxId, ['customers:read', 'customers:write']);
      const app = () => request(service.app);
      const body = { code: 'CRASH-1', name: 'Before the reset' };
      const before = await app().post('/v1/customers').set(test).set('Idempotency-Key', 'crash-idem').send(body);
      expect(before.status).toBe(201);
      // The reset as the route records it, then a crash before it forgets anything: the event is in the log, every record still stored.
      const copy = { settings: false, catalogue: false, customers: false, subscriptions: false };
      const { resetAt } = await resetSandbox(service.services, { actor: { type: 'admin' }, requestId: null }, sandboxId, copy);
      await service.services.projections.waitFor(resetAt);
      // The same key and body make a new customer in the new generation, not a replay of the old answer.
      const after = await app().post('/v1/customers').set(test).set('Idempotency-Key', 'crash-idem').send(body);
      expect(after.status).toBe(201);
      expect(after.headers['idempotent-replayed']).toBeUndefined();
      expect(after.body.id).not.toBe(before.body.id);
      expect(((await app().get('/v1/customers').set(test)).body as Listed).data.map((c) => c.id)).toEqual([after.body.id]);
      // Within the generation the key still holds: the same request replays, another body conflicts.
      const replay = await app().post('/v1/customers').set(test).set('Idempotency-Key', 'crash-idem').send(body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.id).toBe(after.body.id);
      expectError(await app().post('/v1/customers').set(test).set('Idempotency-Key', 'crash-idem').send({ code: 'CRASH-2', name: 'Other' }), 409, 'conflict', 'idempotency_conflict');
    } finally {
      await service.close();
    }
  });
});
