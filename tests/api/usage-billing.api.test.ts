import request from 'supertest';
import { billUsagePeriod } from '../../commands/usage/bill-usage-period';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { billingOrganisation } from '../support/catalogue-fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { until } from '../support/until';

type Line = { id: string; type: string; revenue_type: string; meter: string; usage_quantity: string; units: number; amount: string; discount_amount: string; charge_amount: string; description: string };
type Invoice = { id: string; subscription: string; subtotal: string; lines: Line[]; accounting: { sync_status: string; invoice_id: string | null } };

/**
 * The metered plan (no base fee, monthly) bills api_calls per_unit at 0.0015 past 1000 included, at
 * least 100 a period, and storage_gb by volume (1–10 at 5.00, 11–20 at 4.00, 21+ at 3.50).
 */
describe('usage billing in arrears through the API', () => {
  const START = new Date('2026-03-15T10:00:00.000Z');
  const clock = fixedClock(START);
  let service: TestService;
  let auth: { Authorization: string };
  let tenantId: string;
  let orgId: string;
  let n = 0;
  beforeAll(async () => {
    service = await startTestService(tempDir('usage-billing'), { clock, workers: { accountingSync: { retryBaseMs: 100, retryMaxMs: 400, raisedDelayMs: 50 } } });
    ({ auth, tenantId, orgId } = await billingOrganisation(service, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write', 'usage:write']));
  });
  afterAll(() => service.close());
  afterEach(() => clock.set(START));

  const subscribe = async (body: object = {}) => {
    const response = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `ub-${++n}`).send({ customer_code: 'C1', plan_code: 'metered', ...body });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return (response.body as { id: string }).id;
  };
  const report = (events: object[]) => request(service.app).post('/v1/usage_events').set(auth).send({ events });
  const usage = (subscription: string, id: string, meter: string, quantity: string | number, timestamp?: string) => ({
    event_id: id,
    subscription,
    meter_code: meter,
    quantity,
    ...(timestamp ? { timestamp } : {}),
  });
  const usageInvoices = async (subscription: string): Promise<Invoice[]> => {
    const response = await request(service.app).get(`/v1/invoices?subscription=${subscription}`).set(auth).expect(200);
    return (response.body.data as Invoice[]).filter((invoice) => invoice.lines.some((line) => line.type === 'usage'));
  };

  it('ends with invoice_usage_now: the open period’s usage invoice at once, one usage line per meter, then no more usage', async () => {
    const sub = await subscribe({ discount_percent: '10' });
    expect(
      (await report([usage(sub, 'u-1', 'api_calls', '1500.5'), usage(sub, 'u-2', 'api_calls', 600), usage(sub, 'u-3', 'storage_gb', '12.5', '2026-03-20T09:00:00Z')])).status,
    ).toBe(200);
    clock.set(new Date('2026-04-01T10:00:00.000Z'));
    const ended = await request(service.app).post(`/v1/subscriptions/${sub}/end`).set(auth).send({ when: 'now', invoice_usage_now: true });
    expect(ended.status).toBe(200);
    // Its one closed usage period billed 1.6508 + 50.0000 above the minimums (the calls minimum of 100 is
    // within the 1000 included, so it bills nothing alone): 51.6508, less 10 % (5.1651) = 46.4857; × 12.
    expect(ended.body).toMatchObject({ status: 'ended', end_date: '2026-04-01', usage_value: '46.4857', usage_value_annual: '557.8284', minimum_usage_value: '0.0000' });
    expect((await request(service.app).get(`/v1/subscriptions/${sub}`).set(auth).expect(200)).body).toMatchObject({ usage_value: '46.4857', usage_value_annual: '557.8284' });

    const [invoice, ...others] = await usageInvoices(sub);
    expect(others).toEqual([]);
    expect(invoice!.lines).toEqual([
      // 2100.5 calls (above the minimum 100), 1000 included → 1100.5 × 0.0015 = 1.65075 → 1.6508; 10 % = 0.16508 → 0.1651.
      expect.objectContaining({
        type: 'usage',
        revenue_type: 'usage',
        usage_quantity: '1100.5000',
        units: 1101,
        amount: '1.6508',
        discount_amount: '0.1651',
        charge_amount: '1.4857',
        description: 'Usage 2026-03-15 to 2026-04-02: 2100.5000 reported, 1000 included',
      }),
      // 12.5 GB falls in 11–20: every unit at 4.00 = 50.0000; 10 % = 5.0000.
      expect.objectContaining({ type: 'usage', revenue_type: 'usage', usage_quantity: '12.5000', units: 13, amount: '50.0000', discount_amount: '5.0000', charge_amount: '45.0000' }),
    ]);
    expect(invoice!.subtotal).toBe('46.4857');

    // The accounting sync worker pushes it from the log, the usage lines to the usage revenue account.
    const synced = await until('the usage invoice is synced', async () => {
      const current = (await request(service.app).get(`/v1/invoices/${invoice!.id}`).set(auth)).body as Invoice;
      return current.accounting.sync_status === 'synced' && current;
    });
    const ledger = await service.services.accounting.tenant(tenantId).getInvoice(synced.accounting.invoice_id!);
    expect(ledger.lines.map((line) => [line.accountCode, line.unitAmount])).toEqual([
      ['270', '1.4857'],
      ['270', '45.0000'],
    ]);

    // The operator sees the usage events each line billed, paged by event_id.
    const billedBy = (line: Line, query = '') =>
      request(service.app).get(`/admin/v1/organisations/${orgId}/invoices/${invoice!.id}/lines/${line.id}/usage_events${query}`).set(service.admin).expect(200);
    const [calls, storage] = invoice!.lines;
    const first = await billedBy(calls!, '?limit=1');
    expect(first.body).toEqual({
      object: 'list',
      data: [
        {
          object: 'usage_event',
          event_id: 'u-1',
          meter: calls!.meter,
          meter_code: 'api_calls',
          quantity: '1500.5000',
          timestamp: '2026-03-15T10:00:00.000Z',
          timestamp_sent: false,
          period_start: '2026-03-15',
          recorded_at: expect.any(String),
        },
      ],
      has_more: true,
    });
    const rest = await billedBy(calls!, '?starting_after=u-1');
    expect(rest.body).toMatchObject({ data: [{ event_id: 'u-2', quantity: '600.0000' }], has_more: false });
    expect((await billedBy(storage!)).body).toMatchObject({ data: [{ event_id: 'u-3', timestamp: '2026-03-20T09:00:00.000Z', timestamp_sent: true }], has_more: false });

    // Its final usage is billed: more usage is refused, and the same request again raises nothing more.
    const late = await report([usage(sub, 'u-4', 'api_calls', '1')]);
    expect(late.status).toBe(207);
    expect(late.body.results[0].error.code).toBe('subscription_not_billable');
    expect(await usageInvoices(sub)).toHaveLength(1);
  });

  it('refuses usage that would take a period past the largest amount, so the period it keeps is billed and synced', async () => {
    const sub = await subscribe();
    // Storage past 20 GB bills every GB at 3.50: 285,714,285,714 GB bill 999,999,999,999.0000, the most being 999,999,999,999.9999.
    const answer = await report([
      usage(sub, 'big-1', 'storage_gb', '285714285714'),
      usage(sub, 'big-2', 'storage_gb', '1'),
      usage(sub, 'big-3', 'storage_gb', '0.2857'),
      usage(sub, 'big-4', 'storage_gb', '0.2856'),
    ]);
    expect(answer.status).toBe(207);
    const refused = (to: string) => ({ code: 'invalid_quantity', message: `quantity takes the usage charges of the period from 2026-03-15 to ${to}; the most is 999999999999.9999.` });
    expect(answer.body.results.map((r: { status: string; error?: unknown }) => r.error ?? r.status)).toEqual([
      'created',
      refused('1000000000002.5000'),
      // 0.2857 GB more bills 0.99995: the period's charges round to 1,000,000,000,000.0000.
      refused('1000000000000.0000'),
      'created',
    ]);
    clock.set(new Date('2026-04-01T10:00:00.000Z'));
    await request(service.app).post(`/v1/subscriptions/${sub}/end`).set(auth).send({ when: 'now', invoice_usage_now: true }).expect(200);
    const [invoice] = await usageInvoices(sub);
    // The calls' minimum of 100 is within their 1,000 included: a line of nothing beside the storage's.
    expect(invoice!.lines.map((line) => [line.usage_quantity, line.units, line.amount])).toEqual([
      ['0.0000', 0, '0.0000'],
      ['285714285714.2856', 285714285715, '999999999999.9996'],
    ]);
    const synced = await until('the usage invoice is synced', async () => {
      const current = (await request(service.app).get(`/v1/invoices/${invoice!.id}`).set(auth)).body as Invoice;
      return current.accounting.sync_status !== 'pending' && current;
    });
    expect(synced.accounting.sync_status).toBe('synced');
  });

  it('ends now without invoice_usage_now: no usage invoice yet (the usage close bills it after the grace period)', async () => {
    const sub = await subscribe();
    await report([usage(sub, 'v-1', 'api_calls', '5000')]).expect(200);
    await request(service.app).post(`/v1/subscriptions/${sub}/end`).set(auth).send({ when: 'now' }).expect(200);
    expect(await usageInvoices(sub)).toEqual([]);
    // Usage up to the end date can still be reported until then.
    expect((await report([usage(sub, 'v-2', 'api_calls', '1')])).status).toBe(200);
  });

  it('bills a closed period on its own (the usage close), and ending now with delete_unsent_invoices deletes that never-sent usage invoice too', async () => {
    const sub = await subscribe();
    await report([usage(sub, 'w-1', 'api_calls', '3000')]).expect(200);
    // The period 2026-03-15 to 2026-04-15 is over on the 15th; the scheduler's close calls the command.
    clock.set(new Date('2026-04-16T10:00:00.000Z'));
    const billed = await billUsagePeriod(service.services, { organisationId: orgId, subscriptionId: sub, periodStart: '2026-03-15' }, { actor: { type: 'scheduler' }, requestId: null });
    expect(billed).toMatchObject({ periodEnd: '2026-04-15', billedNow: true, invoiceId: expect.any(String) });
    const [invoice] = await until('the usage invoice is synced', async () => {
      const found = await usageInvoices(sub);
      return found[0]?.accounting.sync_status === 'synced' && found;
    });
    // 3000 calls, 1000 included: 2000 × 0.0015 = 3.0000.
    expect(invoice!.lines).toEqual([expect.objectContaining({ usage_quantity: '2000.0000', units: 2000, amount: '3.0000', charge_amount: '3.0000' })]);
    // Usage dated in the billed period is refused from now on; the next period is open.
    const after = await report([usage(sub, 'w-2', 'api_calls', '1', '2026-04-14T12:00:00Z'), usage(sub, 'w-3', 'api_calls', '1')]);
    expect(after.body.results.map((r: { error?: { code: string } }) => r.error?.code)).toEqual(['timestamp_out_of_period', undefined]);

    await request(service.app).post(`/v1/subscriptions/${sub}/end`).set(auth).send({ when: 'now', delete_unsent_invoices: true }).expect(200);
    expect((await request(service.app).get(`/v1/invoices/${invoice!.id}`).set(auth).expect(200)).body).toMatchObject({ status: 'deleted' });
  });

  it('lists a later period’s billed usage events reading the usage stream from that period’s first event, not from its start', async () => {
    const sub = await subscribe();
    for (const id of ['y-1', 'y-2', 'y-3']) await report([usage(sub, id, 'api_calls', '10')]).expect(200);
    clock.set(new Date('2026-04-16T10:00:00.000Z'));
    // Revision 3, in the second period (2026-04-15 to 2026-05-15); then the first period billed (4).
    await report([usage(sub, 'y-4', 'api_calls', '2000')]).expect(200);
    const by = { actor: { type: 'scheduler' as const }, requestId: null };
    await billUsagePeriod(service.services, { organisationId: orgId, subscriptionId: sub, periodStart: '2026-03-15' }, by);
    await report([usage(sub, 'y-5', 'api_calls', '1')]).expect(200);
    clock.set(new Date('2026-05-16T10:00:00.000Z'));
    const { invoiceId } = await billUsagePeriod(service.services, { organisationId: orgId, subscriptionId: sub, periodStart: '2026-04-15' }, by);
    const invoice = await until('the second period’s invoice', async () => (await request(service.app).get(`/v1/invoices/${invoiceId!}`).set(auth)).body as Invoice);

    const reads = jest.spyOn(service.services.store, 'readStream');
    const billings = jest.spyOn(service.services.store, 'readStreamOfTypes');
    try {
      const listed = await request(service.app)
        .get(`/admin/v1/organisations/${orgId}/invoices/${invoice.id}/lines/${invoice.lines[0]!.id}/usage_events`)
        .set(service.admin)
        .expect(200);
      expect(listed.body.data.map((event: { event_id: string }) => event.event_id)).toEqual(['y-4', 'y-5']);
      // From the period's first event (revision 3) up to its billing (revision 6): two events, then the one left.
      expect(reads.mock.calls.filter(([stream]) => stream === `usage-${sub}`)).toEqual([
        [`usage-${sub}`, 3, 2],
        [`usage-${sub}`, 5, 1],
      ]);
      // Where the period is, its usage_periods document says (its first event and its billing): no billing read from the stream.
      expect(billings).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      billings.mockRestore();
    }
  });

  it('pages a line’s billed usage events, each page read from the event holding its cursor and only as far as it fills', async () => {
    const sub = await subscribe();
    // Five batches of three calls (revisions 0-4), and one storage event in the last.
    const ids = Array.from({ length: 15 }, (_, k) => `p-${k}`);
    for (let batch = 0; batch < 5; batch++) {
      const events = ids.slice(batch * 3, batch * 3 + 3).map((id) => usage(sub, id, 'api_calls', '1'));
      await report(batch === 4 ? [...events, usage(sub, 'p-gb', 'storage_gb', '1')] : events).expect(200);
    }
    clock.set(new Date('2026-04-16T10:00:00.000Z'));
    const { invoiceId } = await billUsagePeriod(service.services, { organisationId: orgId, subscriptionId: sub, periodStart: '2026-03-15' }, { actor: { type: 'scheduler' }, requestId: null });
    const invoice = await until('the usage invoice', async () => (await request(service.app).get(`/v1/invoices/${invoiceId!}`).set(auth)).body as Invoice);
    const calls = invoice.lines[0]!;
    expect(calls.description).toContain('15.0000 reported');
    const page = (query: string) => request(service.app).get(`/admin/v1/organisations/${orgId}/invoices/${invoice.id}/lines/${calls.id}/usage_events${query}`).set(service.admin);

    const reads = jest.spyOn(service.services.store, 'readStream');
    try {
      const listed: string[] = [];
      let after: string | undefined;
      for (;;) {
        const body = (await page(`?limit=4${after ? `&starting_after=${after}` : ''}`).expect(200)).body as { data: { event_id: string }[]; has_more: boolean };
        listed.push(...body.data.map((event) => event.event_id));
        if (!body.has_more) break;
        after = listed.at(-1);
      }
      expect(listed).toEqual(ids);
      // The third page starts after p-7, held by revision 2: that event, then the stream from revision 3.
      const usageReads = reads.mock.calls.filter(([stream]) => stream === `usage-${sub}`);
      // The first page: the first two events (six calls) fill it.
      expect(usageReads[0]).toEqual([`usage-${sub}`, 0, 2]);
      expect(usageReads.slice(3, 5)).toEqual([
        [`usage-${sub}`, 2, 1],
        [`usage-${sub}`, 3, 2],
      ]);
    } finally {
      reads.mockRestore();
    }
    // An event of another line, or none this line billed, is no cursor.
    expectError(await page('?starting_after=p-gb'), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
    expectError(await page('?starting_after=p-unknown'), 422, 'invalid_request_error', 'invalid_parameter', 'starting_after');
  });
});
