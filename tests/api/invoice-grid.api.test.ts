import request from 'supertest';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

type Line = { type: string; revenue_type: string; units: number | null; amount: string; charge_amount: string; description: string; effective_date: string };
type Invoice = { id: string; invoice_date: string; subtotal: string; lines: Line[]; accounting: { sync_status: string } };

/** Adds days to a calendar date (UTC arithmetic on a date has no clock in it). */
const plusDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Midnight in London as UTC: BST (UTC+1) from 28 Mar to 31 Oct 2027 and from 26 Mar 2028. */
const londonMidnight = (date: string): string =>
  (date >= '2027-03-28' && date < '2027-10-31') || date >= '2028-03-26' ? `${plusDays(date, -1)}T23:00:00.000Z` : `${date}T00:00:00.000Z`;

/**
 * The invoice grid (as Kill Bill and Lago test billing): a sandbox with a test clock is advanced
 * through 14 months, from 31 Jan 2027 to 31 Mar 2028 (a leap February), with one subscription of
 * each plan type of the catalogue, and every renewal invoice's lines and amounts are checked against
 * values worked out here by hand. renewal_lead_days is 7: a period's renewal invoice is raised 7 days
 * before it starts, so by 31 Mar 2028 every period starting on or before 7 Apr 2028 is invoiced.
 */
describe('invoice grid: a sandbox advanced through 14 months', () => {
  // 10:00 UTC on Sunday 31 January 2027, GMT in Europe/London.
  const clock = fixedClock(new Date('2027-01-31T10:00:00.000Z'));
  let service: TestService;
  let sandboxId: string;
  let auth: { Authorization: string };
  const subs: Record<string, string> = {};
  let n = 0;

  const subscribe = async (body: object) => {
    const response = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `grid-${++n}`).send({ customer_code: 'C1', ...body });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return (response.body as { id: string }).id;
  };
  const advance = (date: string) => request(service.app).post(`/admin/v1/organisations/${sandboxId}/clock/advance`).set(service.admin).send({ date });
  const invoicesOf = async (subscriptionId: string): Promise<Invoice[]> => {
    const response = await request(service.app).get(`/v1/invoices?subscription=${subscriptionId}&limit=100`).set(auth);
    expect(response.status).toBe(200);
    return (response.body.data as Invoice[]).sort((a, b) => a.invoice_date.localeCompare(b.invoice_date));
  };
  const renewalsOf = async (subscriptionId: string) => (await invoicesOf(subscriptionId)).filter((invoice) => invoice.lines.some((l) => l.revenue_type === 'renewal'));
  const subscription = async (id: string) => (await request(service.app).get(`/v1/subscriptions/${id}`).set(auth)).body as { status: string; renewal_date: string | null; units: number };

  beforeAll(async () => {
    service = await startTestService(tempDir('grid'), { clock });
    const live = await createOrganisation(service, { can_create_accounting_contacts: true });
    sandboxId = (await openSandbox(service, live.id)).id;
    await connectAccounting(service, sandboxId);
    await defineCatalogue(service, sandboxId);
    auth = (await createKey(service, sandboxId, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'customers:write', 'usage:write'])).auth;
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Grid Customer' });
    subs.flat = await subscribe({ plan_code: 'flat' });
    subs.seats = await subscribe({ plan_code: 'seats', units: 5 });
    subs.tiered = await subscribe({ plan_code: 'tiered', units: 15 });
    subs.volume = await subscribe({ plan_code: 'volume', units: 15 });
    subs.stairs = await subscribe({ plan_code: 'stairs', units: 15 });
    subs.metered = await subscribe({ plan_code: 'metered' });
    subs.cpi = await subscribe({ plan_code: 'flat', cpi_enabled: true });
    subs.threeCycles = await subscribe({ plan_code: 'flat', end_after_cycles: 3 });
    subs.pending = await subscribe({ plan_code: 'seats', units: 3, start_date: '2027-02-15' });
    // 5000 API calls in the metered subscription's first period (31 Jan – 28 Feb 2027), billed in arrears.
    const usage = await request(service.app).post('/v1/usage_events').set(auth).send({ events: [{ event_id: 'grid-1', subscription: subs.metered, meter_code: 'api_calls', quantity: '5000' }] });
    expect(usage.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await service.close();
  });

  it('steps through every start, renewal and end on the way, in order, and the subscriptions stand where the calendar says', async () => {
    // 1. To 10 Mar 2027: the seats subscription adds 3 seats from 10 Mar, billed on the renewal invoice.
    const first = await advance('2027-03-10');
    expect(first.status).toBe(200);
    // Midday in London, GMT in March before the 28th.
    expect(first.body).toEqual({ object: 'test_clock', frozen_time: '2027-03-10T12:00:00.000Z', status: 'ready' });
    expect(await subscription(subs.pending!)).toMatchObject({ status: 'active' });
    const change = await request(service.app)
      .post(`/v1/subscriptions/${subs.seats}/units`)
      .set(auth)
      .send({ units: 8, prorate: true, proration_behaviour: 'charge_on_renewal', effective_date: '2027-03-10' });
    expect(change.status).toBe(200);
    // 2. To 1 Jun 2027, record CPI 2027 at 2.50 %; the cpi_enabled subscription rises from its next renewal invoice (raised 23 Jun for 30 Jun).
    expect((await advance('2027-06-01')).status).toBe(200);
    const cpi = await request(service.app).post(`/admin/v1/organisations/${sandboxId}/cpi`).set(service.admin).send({ year: 2027, percent: '2.5' });
    expect(cpi.status).toBe(201);
    expect(cpi.body).toEqual({ object: 'cpi', organisation: sandboxId, year: 2027, percent: '2.50' });
    // 3. To 31 Jan 2028 (244 days), then to 31 Mar 2028.
    expect((await advance('2028-01-31')).status).toBe(200);
    const last = await advance('2028-03-31');
    // Midday BST (UTC+1) on 31 Mar 2028: British Summer Time began on 26 Mar.
    expect(last.body).toEqual({ object: 'test_clock', frozen_time: '2028-03-31T11:00:00.000Z', status: 'ready' });
    expect(await subscription(subs.flat!)).toMatchObject({ status: 'active', renewal_date: '2028-04-30' });
    expect(await subscription(subs.threeCycles!)).toMatchObject({ status: 'complete' });
  }, 120_000);

  // A monthly period anchored on 31 Jan keeps the anchor day, clamped: 29 Feb 2028 is a leap day.
  const monthlyRenewals = [
    '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31', '2027-08-31',
    '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29', '2028-03-31',
  ];
  const periodAfter = (list: string[], renewal: string, next: string) => `Period ${renewal} to ${list[list.indexOf(renewal) + 1] ?? next}`;

  it('flat_fee, monthly from 31 Jan: 14 renewal invoices of 49.9900, one per period, each raised 7 days before it starts', async () => {
    const renewals = await renewalsOf(subs.flat!);
    expect(renewals.map((invoice) => invoice.lines.map((l) => [l.revenue_type, l.units, l.amount, l.description]))).toEqual(
      monthlyRenewals.map((renewal) => [['renewal', null, '49.9900', periodAfter(monthlyRenewals, renewal, '2028-04-30')]]),
    );
    // Raised at midnight in London on that day: 23:00 UTC the day before while British Summer Time runs (28 Mar – 31 Oct 2027).
    expect(renewals.map((invoice) => invoice.invoice_date)).toEqual(monthlyRenewals.map((renewal) => londonMidnight(plusDays(renewal, -7))));
    expect(renewals.every((invoice) => invoice.accounting.sync_status === 'synced')).toBe(true);
    // The line bills from the renewal date: midnight in London (GMT in February, BST in July).
    expect(renewals[0]!.lines[0]!.effective_date).toBe('2027-02-28T00:00:00.000Z');
    expect(renewals[5]!.lines[0]!.effective_date).toBe('2027-07-30T23:00:00.000Z');
  });

  it('per_unit with charge_on_renewal: the prorated 3 seats ride on the next renewal invoice, then the period bills 8 seats', async () => {
    const renewals = await renewalsOf(subs.seats!);
    // 10.0000 a seat, 1 seat free: 5 seats bill 40.0000 a period, 8 seats 70.0000.
    // 5 → 8 from 10 Mar in the period 28 Feb – 31 Mar (31 days): 21 days left; 30.0000 × 21 / 31 = 20.32258… → 20.3226.
    expect(renewals[0]!.lines.map((l) => [l.revenue_type, l.units, l.amount])).toEqual([['renewal', 5, '40.0000']]);
    expect(renewals[1]!.lines.map((l) => [l.revenue_type, l.units, l.amount])).toEqual([
      ['renewal', 8, '70.0000'],
      ['expansion', 8, '20.3226'],
    ]);
    expect(renewals[1]!.subtotal).toBe('90.3226');
    expect(renewals.slice(2).map((invoice) => invoice.subtotal)).toEqual(monthlyRenewals.slice(2).map(() => '70.0000'));
  });

  it('tiered, every 3 months from 31 Jan: 30 Apr, 31 Jul, 31 Oct, 31 Jan; 15 units = 10 × 5.00 + 5 × 4.00 = 70.0000', async () => {
    const renewals = await renewalsOf(subs.tiered!);
    expect(renewals.map((invoice) => [invoice.lines[0]!.description, invoice.lines[0]!.amount])).toEqual([
      ['Period 2027-04-30 to 2027-07-31', '70.0000'],
      ['Period 2027-07-31 to 2027-10-31', '70.0000'],
      ['Period 2027-10-31 to 2028-01-31', '70.0000'],
      ['Period 2028-01-31 to 2028-04-30', '70.0000'],
    ]);
  });

  it('volume, yearly: one renewal on 31 Jan 2028; 15 units fall in the 11–20 band, all at 4.00 = 60.0000', async () => {
    const renewals = await renewalsOf(subs.volume!);
    expect(renewals.map((invoice) => [invoice.lines[0]!.description, invoice.lines[0]!.amount, invoice.invoice_date.slice(0, 10)])).toEqual([
      ['Period 2028-01-31 to 2029-01-31', '60.0000', '2028-01-24'],
    ]);
  });

  it('stairstep, weekly: every 7 days from 7 Feb 2027 to 3 Apr 2028 (61 renewals); 15 units sit on the 4.00 step = 4.0000', async () => {
    const renewals = await renewalsOf(subs.stairs!);
    // 31 Jan 2027 + 7k for k = 1…61: the last is 3 Apr 2028, raised on 27 Mar.
    const dates = Array.from({ length: 61 }, (_, k) => plusDays('2027-01-31', 7 * (k + 1)));
    expect(renewals.map((invoice) => [invoice.lines[0]!.description, invoice.lines[0]!.amount])).toEqual(
      dates.map((date) => [`Period ${date} to ${plusDays(date, 7)}`, '4.0000']),
    );
  });

  it('no_base_fee: a renewal line of 0.0000 each month (usage is billed in arrears on its own invoices)', async () => {
    const renewals = await renewalsOf(subs.metered!);
    expect(renewals.map((invoice) => invoice.subtotal)).toEqual(monthlyRenewals.map(() => '0.0000'));
  });

  it('usage in arrears: the first period’s 5000 API calls are billed usage_grace_days (1) after it ends, on 1 Mar', async () => {
    const usageInvoices = (await invoicesOf(subs.metered!)).filter((invoice) => invoice.lines.some((l) => l.revenue_type === 'usage'));
    // api_calls: per_unit 0.0015 past 1000 included: (5000 − 1000) × 0.0015 = 6.0000.
    const first = usageInvoices.find((invoice) => invoice.lines.some((l) => l.amount !== '0.0000'))!;
    expect(first.invoice_date).toBe('2027-03-01T00:00:00.000Z');
    expect(first.lines.filter((l) => l.amount !== '0.0000').map((l) => [l.revenue_type, l.amount])).toEqual([['usage', '6.0000']]);
    expect(first.subtotal).toBe('6.0000');
  });

  it('CPI: from the first renewal after 2027’s CPI is recorded the flat fee is 49.99 × 1.025 = 51.23975 → 51.2398, applied once for the year', async () => {
    const renewals = await renewalsOf(subs.cpi!);
    // Renewal invoices up to the one raised on 24 May (for 31 May) were raised before the CPI was recorded on 1 Jun.
    expect(renewals.map((invoice) => invoice.subtotal)).toEqual(monthlyRenewals.map((renewal) => (renewal <= '2027-05-31' ? '49.9900' : '51.2398')));
  });

  it('end_after_cycles: 3 bills the periods from 28 Feb and 31 Mar, then completes on 30 Apr without a renewal invoice for the period after', async () => {
    const renewals = await renewalsOf(subs.threeCycles!);
    expect(renewals.map((invoice) => invoice.lines[0]!.description)).toEqual(['Period 2027-02-28 to 2027-03-31', 'Period 2027-03-31 to 2027-04-30']);
  });

  it('a pending subscription gets its first invoice at creation and renews from its own anchor, 15 Feb', async () => {
    const renewals = await renewalsOf(subs.pending!);
    // 3 seats, 1 free: 20.0000 a month, renewals 15 Mar 2027 … 15 Mar 2028: 13 (15 Apr 2028 is raised on 8 Apr, after the clock).
    expect(renewals.length).toBe(13);
    expect(renewals[0]!.lines[0]).toMatchObject({ description: 'Period 2027-03-15 to 2027-04-15', amount: '20.0000' });
    expect(renewals.at(-1)!.lines[0]).toMatchObject({ description: 'Period 2028-03-15 to 2028-04-15', amount: '20.0000' });
  });

  it('refuses an advance of more than 366 days, backwards, or of a live organisation, naming the parameter', async () => {
    // 31 Mar 2028 + 366 days = 1 Apr 2029.
    expectError(await advance('2029-04-02'), 422, 'invalid_request_error', 'invalid_parameter', 'date');
    expectError(await advance('2028-03-30'), 422, 'invalid_request_error', 'invalid_parameter', 'date');
    expectError(await advance('2028-02-30'), 422, 'invalid_request_error', 'invalid_parameter', 'date');
    const live = await createOrganisation(service);
    expectError(await request(service.app).post(`/admin/v1/organisations/${live.id}/clock/advance`).set(service.admin).send({ date: '2028-04-01' }), 422, 'invalid_request_error', 'invalid_parameter', 'org');
  });

  it('refuses a second advance, and a reset, while one runs (409)', async () => {
    expect(service.services.clocks.beginAdvance(sandboxId)).toBe(true);
    try {
      expectError(await advance('2028-04-01'), 409, 'conflict', 'invalid_state');
      const reset = await request(service.app).post(`/admin/v1/organisations/${sandboxId}/reset`).set(service.admin).send({});
      expectError(reset, 409, 'conflict', 'invalid_state');
    } finally {
      service.services.clocks.endAdvance(sandboxId);
    }
  });

  it('API calls in the sandbox see the clock’s time, also after a restart (the clock is an organisation event)', async () => {
    const created = await subscribe({ plan_code: 'flat' });
    expect(await subscription(created)).toMatchObject({ renewal_date: '2028-04-30' });
    await service.close();
    service = await startTestService(service.dataDir, { clock });
    expect(service.services.clocks.forOrganisation(sandboxId).now().toISOString()).toBe('2028-03-31T11:00:00.000Z');
    const later = await subscribe({ plan_code: 'flat' });
    expect((await request(service.app).get(`/v1/subscriptions/${later}`).set(auth)).body).toMatchObject({ start_date: '2028-03-31' });
  });
});
