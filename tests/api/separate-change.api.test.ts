import request from 'supertest';
import { parseMoney } from '../../domain/pricing/money';
import { fixedClock } from '../../infra/clock/clock';
import { defineCatalogue } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';

type Line = { revenue_type: string; units: number | null; amount: string; description: string; effective_date: string };
type Invoice = { id: string; invoice_date: string; status: string; subtotal: string; lines: Line[]; accounting: { invoice_id: string } };
type CreditNote = { id: string; subtotal: string; accounting: { sync_status: string }; lines: { amount: string; description: string; effective_date: string }[]; allocations: { invoice: string; amount: string }[] };

/**
 * `document: separate` once the renewal invoice exists, in a sandbox driven by its test clock: the
 * renewal invoice keeps the units it was raised with, so each separate document bills the next
 * period's difference too, and across the renewal invoice and the separate documents the next period
 * is billed exactly at the units it renews with.
 */
describe('unit changes billed separate after the renewal invoice', () => {
  // 10:00 UTC on 15 March 2026: monthly seats (10.0000 a seat, 1 free) from 15 Mar, the period 15 Mar – 15 Apr (31 days).
  const clock = fixedClock(new Date('2026-03-15T10:00:00.000Z'));
  let service: TestService;
  let sandboxId: string;
  let tenantId: string;
  let auth: { Authorization: string };

  beforeAll(async () => {
    service = await startTestService(tempDir('separate'), { clock });
    const live = await createOrganisation(service, { can_create_accounting_contacts: true });
    sandboxId = (await openSandbox(service, live.id)).id;
    tenantId = await connectAccounting(service, sandboxId);
    await defineCatalogue(service, sandboxId);
    auth = (await createKey(service, sandboxId, ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read', 'customers:write'])).auth;
    await request(service.app).post('/v1/customers').set(auth).send({ code: 'C1', name: 'Separate Customer' });
  }, 60_000);
  afterAll(async () => {
    await service.close();
  });

  let n = 0;
  const subscribe = async () => {
    const created = await request(service.app).post('/v1/subscriptions').set(auth).set('Idempotency-Key', `separate-${++n}`).send({ customer_code: 'C1', plan_code: 'seats', units: 5 });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };
  const advance = async (date: string) => expect((await request(service.app).post(`/admin/v1/organisations/${sandboxId}/clock/advance`).set(service.admin).send({ date })).status).toBe(200);
  const units = (id: string, body: object) => request(service.app).post(`/v1/subscriptions/${id}/units`).set(auth).send({ document: 'separate', ...body });
  const invoicesOf = async (id: string): Promise<Invoice[]> =>
    ((await request(service.app).get(`/v1/invoices?subscription=${id}&limit=100`).set(auth)).body.data as Invoice[]).sort((a, b) => a.invoice_date.localeCompare(b.invoice_date));
  const creditNotesOf = async (id: string): Promise<CreditNote[]> => (await request(service.app).get(`/v1/credit_notes?subscription=${id}`).set(auth)).body.data as CreditNote[];
  const linesOf = (lines: readonly { amount: string; description: string }[]) => lines.map((l) => [l.amount, l.description]);

  it('bills the next period’s difference on each separate document, once, so the next period totals the price of its units', async () => {
    const id = await subscribe();
    // 8 Apr: the renewal invoice for 15 Apr – 15 May is raised 7 days ahead at 5 seats: (5 − 1) × 10 = 40.0000.
    await advance('2026-04-08');
    const [renewal] = (await invoicesOf(id)).filter((i) => i.lines.some((l) => l.revenue_type === 'renewal'));
    expect(renewal!.lines.map((l) => [l.revenue_type, l.units, l.amount])).toEqual([['renewal', 5, '40.0000']]);

    // 5 → 8 from 8 Apr, 7 of 31 days left: (70 − 40) × 7 / 31 = 6.77419… → 6.7742; the next period 70 − 40 = 30.0000.
    const up = await units(id, { units: 8, prorate: true, effective_date: '2026-04-08' });
    expect(up.status).toBe(200);
    expect(up.body.change).toMatchObject({ document: 'separate', invoice: { subtotal: '36.7742' }, credit_note: null });
    const raised = (await invoicesOf(id)).find((i) => i.id === up.body.change.invoice.id)!;
    expect(raised.lines.map((l) => [l.revenue_type, l.units, l.amount, l.description])).toEqual([
      ['expansion', 8, '6.7742', '5 → 8 units from 2026-04-08 to 2026-04-15 (7/31 days)'],
      ['expansion', 8, '30.0000', '5 → 8 units for the period 2026-04-15 to 2026-05-15'],
    ]);
    // The next period's line bills from the renewal date (midnight in London, BST: 23:00 UTC the day before).
    expect(raised.lines[1]!.effective_date).toBe('2026-04-14T23:00:00.000Z');

    // 8 → 6 from 10 Apr, 5 days left: the period's running total (30 × 7 − 20 × 5) / 31 = 3.5484, so −3.2258 on top of
    // 6.7742; the next period 50 − 70 = −20.0000 (against the 8 seats already billed, not the renewal invoice's 5).
    await advance('2026-04-10');
    // The renewal invoice approved (no longer a draft), the credit note is allocated to it.
    await accountingControl(service, `/tenants/${tenantId}/invoices/${renewal!.accounting.invoice_id}/approve`);
    const down = await units(id, { units: 6, prorate: true, effective_date: '2026-04-10' });
    expect(down.status).toBe(200);
    expect(down.body.change).toMatchObject({ document: 'separate', invoice: null, credit_note: { subtotal: '23.2258' } });
    expect(down.body.change.credit_note.allocations).toEqual([expect.objectContaining({ invoice: renewal!.id })]);
    const [note] = await creditNotesOf(id);
    expect(linesOf(note!.lines)).toEqual([
      ['3.2258', '8 → 6 units from 2026-04-10 to 2026-04-15 (5/31 days)'],
      ['20.0000', '8 → 6 units for the period 2026-04-15 to 2026-05-15'],
    ]);

    // Across the renewal invoice and the separate documents the next period bills 40 + 30 − 20 = 50.0000 = (6 − 1) × 10.
    const nextPeriod = (description: string) => description.includes('2026-04-15 to 2026-05-15');
    const invoiced = (await invoicesOf(id)).flatMap((i) => i.lines).filter((l) => nextPeriod(l.description) || l.revenue_type === 'renewal');
    const credited = note!.lines.filter((l) => nextPeriod(l.description));
    const sum = (amounts: string[]) => amounts.reduce((total, amount) => total + parseMoney(amount), 0n);
    expect(sum(invoiced.map((l) => l.amount)) - sum(credited.map((l) => l.amount))).toBe(parseMoney('50.0000'));

    // The roll-over on 15 Apr bills nothing more; the next renewal invoice (8 May, for 15 May – 15 Jun) bills 6 seats.
    await advance('2026-05-08');
    const renewals = (await invoicesOf(id)).filter((i) => i.lines.some((l) => l.revenue_type === 'renewal'));
    expect(renewals.map((i) => i.lines.map((l) => [l.revenue_type, l.units, l.amount]))).toEqual([[['renewal', 5, '40.0000']], [['renewal', 6, '50.0000']]]);
    expect((await request(service.app).get(`/v1/subscriptions/${id}`).set(auth)).body).toMatchObject({ units: 6 });
  }, 60_000);

  it('without proration: a separate invoice for the next period’s difference only; the current period is untouched', async () => {
    // The sandbox's clock stands on 8 May now: the period 8 May – 8 Jun, its renewal invoice raised on 1 Jun.
    const id = await subscribe();
    await advance('2026-06-01');
    // 5 → 7 at renewal: the renewal invoice bills 40.0000 for 5 seats; 60 − 40 = 20.0000 more for 8 Jun – 8 Jul.
    const changed = await units(id, { units: 7 });
    expect(changed.status).toBe(200);
    expect(changed.body.change).toMatchObject({ document: 'separate', invoice: { subtotal: '20.0000' } });
    const invoices = await invoicesOf(id);
    const raised = invoices.find((i) => i.id === changed.body.change.invoice.id)!;
    expect(raised.lines.map((l) => [l.revenue_type, l.units, l.amount, l.description])).toEqual([['expansion', 7, '20.0000', '5 → 7 units for the period 2026-06-08 to 2026-07-08']]);
    expect(invoices.filter((i) => i.lines.some((l) => l.revenue_type === 'expansion'))).toHaveLength(1);
  }, 60_000);
  it('ending credits the next period’s difference a separate invoice billed (the period will not happen); restoring raises the renewal invoice afresh for the units of now', async () => {
    // The sandbox's clock stands on 1 Jun: the period 1 Jun – 1 Jul, its renewal invoice raised on 24 Jun at 5 seats, 40.0000.
    const id = await subscribe();
    await advance('2026-06-24');
    // 5 → 8 at renewal, separate: (8 − 1) × 10 − 40 = 30.0000 for 1 Jul – 1 Aug, approved in the accounting system.
    const changed = await units(id, { units: 8 });
    expect(changed.body.change).toMatchObject({ document: 'separate', invoice: { subtotal: '30.0000' } });
    const separate = (await invoicesOf(id)).find((i) => i.id === changed.body.change.invoice.id)!;
    await accountingControl(service, `/tenants/${tenantId}/invoices/${separate.accounting.invoice_id}/approve`);

    const ended = await request(service.app).post(`/v1/subscriptions/${id}/end`).set(auth).send({ when: 'now' });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: 'ended' });
    const [note, ...others] = await creditNotesOf(id);
    expect(others).toEqual([]);
    expect(note).toMatchObject({ subtotal: '30.0000', accounting: { sync_status: 'synced' } });
    expect(note!.lines.map((l) => [l.amount, l.description, l.effective_date])).toEqual([
      ['30.0000', 'Subscription ended: 5 → 8 units for the period 2026-07-01 to 2026-08-01', '2026-06-30T23:00:00.000Z'],
    ]);
    expect(note!.allocations).toEqual([expect.objectContaining({ invoice: separate.id })]);

    // Across every invoice not removed and the credit note, the period 1 Jul – 1 Aug that will not happen bills nothing.
    const nextPeriodBilled = async () => {
      const inPeriod = (l: { description: string; revenue_type?: string }) => l.description.includes('2026-07-01 to 2026-08-01') || l.revenue_type === 'renewal';
      const live = (await invoicesOf(id)).filter((i) => i.status !== 'deleted' && i.status !== 'voided');
      const invoiced = live.flatMap((i) => i.lines).filter(inPeriod).reduce((sum, l) => sum + parseMoney(l.amount), 0n);
      const credited = (await creditNotesOf(id)).flatMap((n) => n.lines).filter(inPeriod).reduce((sum, l) => sum + parseMoney(l.amount), 0n);
      return invoiced - credited;
    };
    expect(await nextPeriodBilled()).toBe(0n);

    // Restoring raises the renewal invoice afresh, for the 8 seats of now: 70.0000 = (8 − 1) × 10; the credited 30.0000 stays credited.
    const restored = await request(service.app).post(`/v1/subscriptions/${id}/restore`).set(auth).send({});
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ status: 'active', units: 8 });
    const renewals = (await invoicesOf(id)).filter((i) => i.status !== 'deleted' && i.lines.some((l) => l.revenue_type === 'renewal'));
    expect(renewals.map((i) => i.lines.map((l) => [l.revenue_type, l.units, l.amount]))).toEqual([[['renewal', 8, '70.0000']]]);
    expect(await nextPeriodBilled()).toBe(parseMoney('70.0000'));

    // Ending again at period end removes that renewal invoice, and no other invoice bills the period now; a retry of that end raises nothing more.
    const endAgain = () => request(service.app).post(`/v1/subscriptions/${id}/end`).set(auth).set('Idempotency-Key', `end-again-${id}`).send({ when: 'period_end' });
    expect((await endAgain()).body).toMatchObject({ cancel_at_period_end: true });
    expect(await nextPeriodBilled()).toBe(0n);
    expect((await endAgain()).status).toBe(200);
    expect(await creditNotesOf(id)).toHaveLength(1);
  }, 60_000);
});
