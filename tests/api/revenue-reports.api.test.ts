import request from 'supertest';
import { dateIn } from '../../domain/pricing/calendar';
import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { fixedClock } from '../../infra/clock/clock';
import { expectError } from '../support/api-assertions';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

type Row = Record<string, string | number>;
type Invoice = { id: string; currency: string; invoice_date: string; status: string; subtotal: string; lines: { revenue_type: string; charge_amount: string }[] };
type CreditNote = { id: string; currency: string; credit_note_date: string; status: string; subtotal: string };

/**
 * The revenue reports over a sandbox driven through four months (March to June 2026, London) by its
 * test clock: new, expansion, contraction, churn and reactivation, a subscription that starts and
 * ends inside one month, two currencies, usage. Every figure below is worked out by hand.
 */
describe('revenue reports over four months of a sandbox', () => {
  // Real time, which `as_of` is: moved an hour for each step, so each step's events are recorded at an instant of their own.
  const clock = fixedClock(new Date('2026-03-01T10:00:00.000Z'));
  let service: TestService;
  let sandboxId: string;
  let auth: { Authorization: string };
  const ids: Record<string, string> = {};
  /** What the reports said at the end of April, and the recording instant just after it. */
  let april: { instant: string; mrr: Row[]; revenue: Row[] };

  const app = () => request(service.app);
  const tick = () => clock.set(new Date(clock.now().getTime() + 3_600_000));
  const advance = async (date: string) => {
    tick();
    const advanced = await app().post(`/admin/v1/organisations/${sandboxId}/clock/advance`).set(service.admin).send({ date });
    expect(advanced.status).toBe(200);
  };
  const subscribe = async (name: string, body: object) => {
    tick();
    const created = await app().post('/v1/subscriptions').set(auth).set('Idempotency-Key', `reports-${name}`).send({ customer_code: 'C1', ...body });
    expect(created.status).toBe(201);
    ids[name] = (created.body as { id: string }).id;
  };
  const write = async (path: string, body: object) => {
    tick();
    const response = await app().post(path).set(auth).send(body);
    expect(response.status).toBe(200);
  };
  const report = (kind: 'mrr' | 'revenue', query: string, organisationId = sandboxId) => app().get(`/admin/v1/organisations/${organisationId}/reports/${kind}?${query}`).set(service.admin);
  const rows = async (kind: 'mrr' | 'revenue', query = 'from=2026-03&to=2026-06'): Promise<Row[]> => {
    const response = await report(kind, query);
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    return response.body.data as Row[];
  };

  beforeAll(async () => {
    service = await startTestService(tempDir('revenue-reports'), { clock });
    const live = await createOrganisation(service, { can_create_accounting_contacts: true });
    sandboxId = (await openSandbox(service, live.id)).id;
    await connectAccounting(service, sandboxId);
    await defineCatalogue(service, sandboxId);
    const euros = await app()
      .post(`/admin/v1/organisations/${sandboxId}/plans`)
      .set(service.admin)
      .send({ status: 'active', code: 'euro', name: 'Euro', type: 'flat_fee', interval: { unit: 'month' }, currency: 'EUR', price: '30' });
    expect(euros.status).toBe(201);
    auth = (await createKey(service, sandboxId, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read', 'customers:write', 'usage:write'])).auth;
    await app().post('/v1/customers').set(auth).send({ code: 'C1', name: 'Report Customer' });

    // March. Seats bill (units − 1 free) × 10.0000 a month.
    await advance('2026-03-02');
    await subscribe('A', { plan_code: 'seats', units: 5 }); // (5 − 1) × 10 = 40.0000
    await subscribe('B', { plan_code: 'flat' }); // 49.9900
    await subscribe('E', { plan_code: 'euro', cpi_enabled: true }); // 30.0000 EUR
    await subscribe('U', { plan_code: 'metered' }); // usage only: no MRR
    await subscribe('S', { plan_code: 'seats', units: 3 }); // (3 − 1) × 10 = 20.0000, ended on 20 March
    tick();
    const usage = await app()
      .post('/v1/usage_events')
      .set(auth)
      .send({ events: [{ event_id: 'calls-1', subscription: ids.U, meter_code: 'api_calls', quantity: 3000, timestamp: '2026-03-05T12:00:00Z' }] });
    expect(usage.status).toBe(200);
    await advance('2026-03-10');
    await subscribe('R', { plan_code: 'seats', units: 4 }); // (4 − 1) × 10 = 30.0000, renews on the 10th
    await advance('2026-03-20');
    // Its first invoice, never sent, is deleted: it counts zero.
    await write(`/v1/subscriptions/${ids.S}/end`, { when: 'now', delete_unsent_invoices: true });

    // April.
    await advance('2026-04-05');
    await write(`/v1/subscriptions/${ids.B}/end`, { when: 'period_end' }); // ends on its renewal date, 2 May
    await advance('2026-04-10');
    await write(`/v1/subscriptions/${ids.A}/units`, { units: 8, prorate: true, effective_date: '2026-04-10' }); // 70.0000
    await advance('2026-04-28');
    await write(`/v1/subscriptions/${ids.R}/end`, { when: 'now' });
    await advance('2026-04-30');
    tick();
    april = { instant: clock.now().toISOString(), mrr: await rows('mrr'), revenue: await rows('revenue') };

    // May.
    await advance('2026-05-05');
    await write(`/v1/subscriptions/${ids.R}/restore`, {}); // before its renewal date, 10 May
    await write(`/v1/subscriptions/${ids.A}/units`, { units: 4, prorate: true, effective_date: '2026-05-05' }); // 30.0000
    tick();
    expect((await app().post(`/admin/v1/organisations/${sandboxId}/cpi`).set(service.admin).send({ year: 2026, percent: '5.00' })).status).toBe(201);

    // June.
    await advance('2026-06-30');
    await service.services.projections.waitFor(await service.services.store.headPosition());
  }, 120_000);
  afterAll(() => service.close());

  /** A row with every amount 0.0000 but those given. */
  const mrrRow = (month: string, currency: string, figures: Row): Row => ({
    month,
    currency,
    ...Object.fromEntries(['opening_mrr', 'new', 'expansion', 'contraction', 'churn', 'reactivation', 'closing_mrr', 'arr'].map((field) => [field, '0.0000'])),
    ...figures,
  });
  const revenueRow = (month: string, currency: string, figures: Row): Row => ({
    month,
    currency,
    ...Object.fromEntries(['new_subscription', 'expansion', 'renewal', 'usage', 'credits', 'total'].map((field) => [field, '0.0000'])),
    ...figures,
  });

  it('moves MRR month by month: new, expansion, contraction, churn, reactivation, per currency', async () => {
    expect(await rows('mrr')).toEqual([
      // EUR: E, 30.0000 a month from 2 March.
      mrrRow('2026-03', 'EUR', { new: '30.0000', closing_mrr: '30.0000', arr: '360.0000', active_subscriptions: 1 }),
      // GBP: A 40.0000 + B 49.9900 + R 30.0000 = 119.9900 new; S starts and ends inside March (moves nothing);
      // U bills usage only (no MRR). ARR 119.9900 × 12 = 1439.8800.
      mrrRow('2026-03', 'GBP', { new: '119.9900', closing_mrr: '119.9900', arr: '1439.8800', active_subscriptions: 3 }),
      mrrRow('2026-04', 'EUR', { opening_mrr: '30.0000', closing_mrr: '30.0000', arr: '360.0000', active_subscriptions: 1 }),
      // A 5 → 8 seats from 10 April: 40 → 70, expansion 30.0000; R ended on 28 April: churn 30.0000. B, set to
      // end at period end (2 May), keeps its MRR through April. 119.99 + 30 − 30 = 119.9900; A and B active.
      mrrRow('2026-04', 'GBP', { opening_mrr: '119.9900', expansion: '30.0000', churn: '30.0000', closing_mrr: '119.9900', arr: '1439.8800', active_subscriptions: 2 }),
      mrrRow('2026-05', 'EUR', { opening_mrr: '30.0000', closing_mrr: '30.0000', arr: '360.0000', active_subscriptions: 1 }),
      // A 8 → 4 seats from 5 May: 70 → 30, contraction 40.0000; B ended on 2 May: churn 49.9900; R restored on
      // 5 May: reactivation 30.0000. 119.99 − 40 − 49.99 + 30 = 60.0000 (A and R); ARR 720.0000.
      mrrRow('2026-05', 'GBP', { opening_mrr: '119.9900', contraction: '40.0000', churn: '49.9900', reactivation: '30.0000', closing_mrr: '60.0000', arr: '720.0000', active_subscriptions: 2 }),
      // CPI 5 % recorded in May, taken by E at its renewal on 2 June: 30.0000 × 1.05 = 31.5000, expansion 1.5000.
      mrrRow('2026-06', 'EUR', { opening_mrr: '30.0000', expansion: '1.5000', closing_mrr: '31.5000', arr: '378.0000', active_subscriptions: 1 }),
      mrrRow('2026-06', 'GBP', { opening_mrr: '60.0000', closing_mrr: '60.0000', arr: '720.0000', active_subscriptions: 2 }),
    ]);
  });

  it('sums invoiced revenue by type, net of the credit notes reversing it, deleted invoices counting zero', async () => {
    expect(await rows('revenue')).toEqual([
      // First invoices on 2 March, renewal invoices 7 days before 2 April (26 March).
      revenueRow('2026-03', 'EUR', { new_subscription: '30.0000', renewal: '30.0000', total: '60.0000' }),
      // New: A 40.0000 + B 49.9900 + U 0.0000 + R 30.0000 (S's 20.0000 deleted when it ended) = 119.9900;
      // renewal: A 40.0000 + B 49.9900 + U 0.0000 = 89.9900.
      revenueRow('2026-03', 'GBP', { new_subscription: '119.9900', renewal: '89.9900', total: '209.9800' }),
      revenueRow('2026-04', 'EUR', { renewal: '30.0000', total: '30.0000' }),
      // Renewal: R 30.0000 on 3 April, A 70.0000 (8 seats) and U 0.0000 on 25 April (none for B, which ends on
      // its renewal date). Expansion: A's 3 seats for 22 of the 30 days from 10 April, 30 × 22 / 30 = 22.0000.
      // Usage: U's March, 3,000 calls less 1,000 included at 0.0015 = 3.0000, billed 3 April.
      revenueRow('2026-04', 'GBP', { expansion: '22.0000', renewal: '100.0000', usage: '3.0000', total: '125.0000' }),
      // E's renewal invoice for June, raised 26 May with CPI: 31.5000.
      revenueRow('2026-05', 'EUR', { renewal: '31.5000', total: '31.5000' }),
      // Renewal: R's for 10 May, raised on its restore, 30.0000; A's for June (4 seats) 30.0000; U 0.0000. A's
      // decrease credits (30 − 70) × 28 / 31 days = −36.12903… → 36.1290, reversing the renewal line that billed
      // the period from 2 May: renewal 60.0000 − 36.1290 = 23.8710.
      revenueRow('2026-05', 'GBP', { renewal: '23.8710', credits: '36.1290', total: '23.8710' }),
      revenueRow('2026-06', 'EUR', { renewal: '31.5000', total: '31.5000' }),
      // R's for 10 June and A's for July, 30.0000 each; U 0.0000.
      revenueRow('2026-06', 'GBP', { renewal: '60.0000', total: '60.0000' }),
    ]);
  });

  it('equals the sums of the invoices and credit notes /v1 lists, month by month', async () => {
    const invoices = (await app().get('/v1/invoices?limit=100').set(auth)).body.data as Invoice[];
    const notes = (await app().get('/v1/credit_notes?limit=100').set(auth)).body.data as CreditNote[];
    expect(invoices).toHaveLength(24);
    const counted = (status: string) => status !== 'voided' && status !== 'deleted';
    const monthOf = (instant: string) => dateIn(instant, 'Europe/London').slice(0, 7);
    for (const row of await rows('revenue')) {
      const inMonth = <T extends { currency: string }>(documents: T[], date: (d: T) => string, status: (d: T) => string) =>
        documents.filter((d) => d.currency === row.currency && monthOf(date(d)) === row.month && counted(status(d)));
      const billed = inMonth(invoices, (i) => i.invoice_date, (i) => i.status);
      const credited = inMonth(notes, (n) => n.credit_note_date, (n) => n.status);
      const sum = (amounts: string[]) => formatMoney(amounts.reduce((total, amount) => total + parseMoney(amount), 0n));
      const invoiced = sum(billed.map((i) => i.subtotal));
      expect(row.credits).toBe(sum(credited.map((n) => n.subtotal)));
      expect(row.total).toBe(formatMoney(parseMoney(invoiced) - parseMoney(row.credits as string)));
      // Each type and what credit notes reversed of it (here only renewal) add up to its lines.
      for (const type of ['new_subscription', 'expansion', 'renewal', 'usage']) {
        const lines = sum(billed.flatMap((i) => i.lines.filter((l) => l.revenue_type === type).map((l) => l.charge_amount)));
        expect(formatMoney(parseMoney(row[type] as string) + (type === 'renewal' ? parseMoney(row.credits as string) : 0n))).toBe(lines);
      }
    }
  });

  it('answers the same rows as CSV, a header line first', async () => {
    const csv = await report('mrr', 'from=2026-05&to=2026-05&currency=GBP').set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      'month,currency,opening_mrr,new,expansion,contraction,churn,reactivation,closing_mrr,arr,active_subscriptions\n' +
        '2026-05,GBP,119.9900,0.0000,0.0000,40.0000,49.9900,30.0000,60.0000,720.0000,2\n',
    );
    const revenue = await report('revenue', 'from=2026-05&to=2026-06&currency=EUR').set('Accept', 'text/csv');
    expect(revenue.text).toBe('month,currency,new_subscription,expansion,renewal,usage,credits,total\n2026-05,EUR,0.0000,0.0000,31.5000,0.0000,0.0000,31.5000\n2026-06,EUR,0.0000,0.0000,31.5000,0.0000,0.0000,31.5000\n');
    // JSON unless CSV is preferred.
    expect((await report('mrr', 'from=2026-05&to=2026-05').set('Accept', 'application/json, text/csv;q=0.5')).body.object).toBe('list');
  });

  it('takes one currency, and starts each currency at its first month', async () => {
    expect((await rows('mrr', 'from=2026-01&to=2026-03&currency=EUR')).map((r) => [r.month, r.currency, r.closing_mrr])).toEqual([['2026-03', 'EUR', '30.0000']]);
    expect(await rows('revenue', 'from=2025-01&to=2026-02')).toEqual([]);
    expect(await rows('mrr', 'from=2026-04&to=2026-04&currency=JPY')).toEqual([]);
  });

  it('as of an instant gives the rows a report asked then gave', async () => {
    // At the end of April, B's end on 2 May was already known: May's churn, but not yet R's restore, A's decrease or the CPI.
    expect(april.mrr.find((r) => r.month === '2026-05' && r.currency === 'GBP')).toEqual(
      mrrRow('2026-05', 'GBP', { opening_mrr: '119.9900', churn: '49.9900', closing_mrr: '70.0000', arr: '840.0000', active_subscriptions: 1 }),
    );
    expect(await rows('mrr', `from=2026-03&to=2026-06&as_of=${april.instant}`)).toEqual(april.mrr);
    expect(await rows('revenue', `from=2026-03&to=2026-06&as_of=${april.instant}`)).toEqual(april.revenue);
    // Before the sandbox had anything: no rows.
    expect(await rows('mrr', 'from=2026-03&to=2026-06&as_of=2026-03-01T10:00:00Z')).toEqual([]);
  });

  it('gives the same rows after a blue/green rebuild', async () => {
    const before = { mrr: await rows('mrr'), revenue: await rows('revenue') };
    expect((await app().post('/admin/v1/projections/rebuild').set(service.admin).send({ projections: ['revenue_reports'], verify: true })).status).toBe(202);
    expect(await service.services.projections.rebuilt()).toMatchObject({ status: 'switched', differences: [] });
    expect({ mrr: await rows('mrr'), revenue: await rows('revenue') }).toEqual(before);
  });

  it('refuses bad input with 422 invalid_parameter naming the parameter, and an unknown organisation with 404', async () => {
    const refused = async (query: string, param: string) => expectError(await report('mrr', query), 422, 'invalid_request_error', 'invalid_parameter', param);
    await refused('from=2026-06&to=2026-03', 'from');
    await refused('from=2016-01&to=2026-01', 'to'); // 121 months
    await refused('from=2026-13&to=2026-14', 'from');
    await refused('from=2026-3&to=2026-04', 'from');
    await refused('from=2026-03&to=26-04', 'to');
    await refused('from=1969-12&to=1970-01', 'from');
    await refused('to=2026-04', 'from');
    await refused('from=2026-03&to=2026-04&as_of=yesterday', 'as_of');
    await refused('from=2026-03&to=2026-04&as_of=2026-04-31T00:00:00Z', 'as_of');
    await refused('from=2026-03&to=2026-04&currency=XYZ', 'currency');
    await refused('from=2026-03&to=2026-04&currency=gbp', 'currency');
    await refused('from=2026-03&to=2026-04&limit=5', 'limit');
    expectError(await report('revenue', 'from=2026-03&to=2026-14'), 422, 'invalid_request_error', 'invalid_parameter', 'to');
    // 120 months is the most: accepted.
    expect((await report('mrr', 'from=2016-02&to=2026-01')).status).toBe(200);
    expectError(await report('mrr', 'from=2026-03&to=2026-04', 'org_missing'), 404, 'not_found', 'organisation_not_found', 'org');
    expectError(await report('revenue', 'from=2026-03&to=2026-04', 'org_missing'), 404, 'not_found', 'organisation_not_found', 'org');
  });
});
