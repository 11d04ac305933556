import fc from 'fast-check';
import request from 'supertest';
import { awaitSync } from '../../commands/accounting/await-sync';
import { loadOpenOrganisation } from '../../commands/plumbing/load-open-organisation';
import { addDays, daysBetween, middayOf, startOfDate } from '../../domain/pricing/calendar';
import { formatMoney, parseMoney } from '../../domain/pricing/money';
import { fixedClock } from '../../infra/clock/clock';
import { AccountingRefused, type AccountingTenant } from '../../infra/accounting/port';
import { workerDeps } from '../../service/services';
import { runDueWork } from '../../workers/scheduler';
import { defineCatalogue, planBodies, tiers as tierBodies } from '../support/catalogue-fixtures';
import { accountingControl, connectAccounting, createKey, createOrganisation, openSandbox } from '../support/fixtures';
import { startTestService, tempDir, type TestService } from '../support/test-service';
import { currentPeriod, ended, expectedTotal, type Model, newModel, type Plan, restored, timePasses, unitsChanged } from './lifecycle-model';

/**
 * Random sequences of valid lifecycle commands on one subscription, against the demonstration
 * accounting system with no fault injected: unit changes of every kind (prorated or not, charged at
 * once or on renewal, `amend` and `separate`, decreases that credit), ends now and at period end,
 * restores, time passing (the renewal invoice raised and pushed, the subscription renewed or
 * completed), a person approving, paying or sending invoices in the accounting system, and, in a
 * live organisation, an operator moving it to another accounting organisation.
 *
 * After every command: no 5xx; a refusal is one the API document lists for its route and changes
 * nothing; the accounting system refused no call the service made. After the sequence: every
 * document is in the accounting system as the service holds it, and what the subscription's
 * documents bill less what they credit is what its units cost over time (lifecycle-model.ts).
 */

const START = new Date('2026-03-15T10:00:00.000Z');
const TIMEZONE = 'Europe/London';
const SCOPES = ['subscriptions:read', 'subscriptions:write', 'invoices:read', 'credit_notes:read'];

export type LifecycleWorld = Readonly<{
  service: TestService;
  /** The live organisation whose sandbox the sandbox sequences run in. */
  sandboxId: string;
  sandboxTenantId: string;
  /** Advances the live clock (every live organisation's). */
  clock: ReturnType<typeof fixedClock>;
  /** Every call the accounting system refused since the last look, as `call: its words`. */
  takeRefusals(): string[];
  close(): Promise<void>;
}>;

/** The catalogue fixtures' tiers, as the plans hold them. */
const tiers = tierBodies.map((tier) => ({ fromUnits: tier.from_units, toUnits: tier.to_units, price: formatMoney(parseMoney(tier.price)) }));

/** Every plan type with units, each with periods short enough to renew within a sequence. */
const PLANS: readonly Plan[] = [
  { code: 'seats', pricing: { type: 'per_unit', price: '10.0000', freeUnits: 1, tiers: [] }, minimum: 2, interval: { unit: 'month', count: 1 } },
  { code: 'tiered', pricing: { type: 'tiered', price: '0.0000', freeUnits: 0, tiers }, minimum: 0, interval: { unit: 'month', count: 3 } },
  { code: 'stairs', pricing: { type: 'stairstep', price: '0.0000', freeUnits: 0, tiers }, minimum: 0, interval: { unit: 'week', count: 1 } },
  { code: 'volume-monthly', pricing: { type: 'volume', price: '0.0000', freeUnits: 0, tiers }, minimum: 0, interval: { unit: 'month', count: 1 } },
];

/** The catalogue fixtures' plans, and a monthly volume plan (theirs is yearly). */
const defineCatalogueFor = async (service: TestService, organisationId: string): Promise<void> => {
  await defineCatalogue(service, organisationId);
  const volume = await request(service.app)
    .post(`/admin/v1/organisations/${organisationId}/plans`)
    .set(service.admin)
    .send({ ...planBodies.volume, status: 'active', code: 'volume-monthly', name: 'Volume monthly', interval: { unit: 'month' } });
  if (volume.status !== 201) throw new Error(`plan not created: ${JSON.stringify(volume.body)}`);
  const customer = await request(service.app).post(`/admin/v1/organisations/${organisationId}/customers`).set(service.admin).send({ code: 'C1', name: 'Sequence Customer' });
  if (customer.status !== 201) throw new Error(`customer not imported: ${JSON.stringify(customer.body)}`);
};

/** Records every refusal among the accounting system's answers, leaving the calls as they were. */
const recordRefusals = (service: TestService, refusals: string[]): void => {
  const accounting = service.services.accounting;
  const tenantOf = accounting.tenant.bind(accounting);
  accounting.tenant = (tenantId) =>
    Object.fromEntries(
      Object.entries(tenantOf(tenantId)).map(([name, member]) => [
        name,
        typeof member !== 'function'
          ? member
          : async (...args: unknown[]) => {
              try {
                return await (member as (...a: unknown[]) => Promise<unknown>)(...args);
              } catch (error) {
                if (error instanceof AccountingRefused) refusals.push(`${name}: ${error.message}`);
                throw error;
              }
            },
      ]),
    ) as unknown as AccountingTenant;
};

export const lifecycleWorld = async (label: string): Promise<LifecycleWorld> => {
  const clock = fixedClock(START);
  const service = await startTestService(tempDir(label), { clock });
  const refusals: string[] = [];
  recordRefusals(service, refusals);
  const live = await createOrganisation(service, { can_create_accounting_contacts: true });
  await connectAccounting(service, live.id);
  await defineCatalogueFor(service, live.id);
  const sandboxId = (await openSandbox(service, live.id)).id;
  const sandboxTenantId = await connectAccounting(service, sandboxId);
  return { service, sandboxId, sandboxTenantId, clock, takeRefusals: () => refusals.splice(0), close: () => service.close() };
};

/** How a sequence starts: where, on which plan and units, and the organisation's settings that shape what a change raises. */
export type Start = Readonly<{ live: boolean; plan: number; units: number; leadDays: number; unitChangeDocument: 'separate' | 'amend' }>;

export type Step =
  | Readonly<{ kind: 'units'; units: number; prorate: boolean; behaviour: 'charge_immediately' | 'charge_on_renewal' | null; at: number; document: 'amend' | 'separate' | null }>
  | Readonly<{ kind: 'end'; when: 'now' | 'period_end'; deleteUnsent: boolean; voidApproved: boolean }>
  | Readonly<{ kind: 'restore' }>
  | Readonly<{ kind: 'advance'; days: number }>
  | Readonly<{ kind: 'ledger'; action: 'approve' | 'pay' | 'send'; which: number }>
  | Readonly<{ kind: 'reconnect' }>;

export const startArbitrary: fc.Arbitrary<Start> = fc.record({
  live: fc.boolean(),
  plan: fc.nat({ max: PLANS.length - 1 }),
  units: fc.integer({ min: 2, max: 25 }),
  // Long leads leave the renewal invoice out for most of a period, where `amend` and `separate` apply.
  leadDays: fc.constantFrom(0, 7, 20, 30),
  unitChangeDocument: fc.constantFrom('separate' as const, 'amend' as const),
});

export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('units' as const),
      units: fc.integer({ min: 0, max: 30 }),
      prorate: fc.boolean(),
      behaviour: fc.constantFrom(null, 'charge_immediately' as const, 'charge_on_renewal' as const),
      at: fc.nat({ max: 999 }),
      document: fc.constantFrom(null, 'amend' as const, 'separate' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('end' as const), when: fc.constantFrom('now' as const, 'period_end' as const), deleteUnsent: fc.boolean(), voidApproved: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ledger' as const), action: fc.constantFrom('approve' as const, 'pay' as const, 'send' as const), which: fc.nat({ max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reconnect' as const) }) },
);

/** What an answer is made of, for a request and for a move of the live clock alike. */
type Answer = Readonly<{ status: number; body: unknown }>;

/** The organisation a sequence runs in: its key, how time passes for it, and the accounting organisations it used (the one in use last). */
type SequenceOrganisation = Readonly<{
  id: string;
  auth: Readonly<{ Authorization: string }>;
  tenants: string[];
  advance(date: string): Promise<Answer>;
  /** An operator moves a live organisation to another accounting organisation (a sandbox keeps its own). */
  reconnect: (() => Promise<void>) | null;
}>;

/** The sandbox reset (copying the live catalogue and customer), its test clock moved by the admin API. */
const inSandbox = async (world: LifecycleWorld, start: Start): Promise<SequenceOrganisation> => {
  const { service, sandboxId } = world;
  const admin = (path: string, body: object) => request(service.app).post(`/admin/v1/organisations/${sandboxId}${path}`).set(service.admin).send(body);
  const reset = await admin('/reset', { copy: { settings: true, catalogue: true, customers: true } });
  if (reset.status !== 200) throw new Error(`sandbox not reset: ${JSON.stringify(reset.body)}`);
  const settings = await request(service.app)
    .patch(`/admin/v1/organisations/${sandboxId}`)
    .set(service.admin)
    .send({ renewal_lead_days: start.leadDays, unit_change_document: start.unitChangeDocument });
  if (settings.status !== 200) throw new Error(`settings not changed: ${JSON.stringify(settings.body)}`);
  // A key of its own each time: the live clock stands still, so the rate limit's window never moves on.
  const { auth } = await createKey(service, sandboxId, SCOPES);
  return { id: sandboxId, auth, tenants: [world.sandboxTenantId], advance: (date) => admin('/clock/advance', { date }), reconnect: null };
};

/**
 * A new live organisation; time passes for it as the real-time scheduler makes it pass: the clock
 * moved to each due step's date and the organisation's due work run.
 */
const inLiveOrganisation = async (world: LifecycleWorld, start: Start): Promise<SequenceOrganisation> => {
  const { service, clock } = world;
  const { id } = await createOrganisation(service, {
    can_create_accounting_contacts: true,
    timezone: TIMEZONE,
    renewal_lead_days: start.leadDays,
    unit_change_document: start.unitChangeDocument,
  });
  const tenants = [await connectAccounting(service, id)];
  await defineCatalogueFor(service, id);
  const { auth } = await createKey(service, id, SCOPES);
  const deps = workerDeps(service.services);
  const accounting = (path: string) => request(service.app).post(`/admin/v1/organisations/${id}/accounting/${path}`).set(service.admin).send({});
  return {
    id,
    auth,
    tenants,
    advance: async (date) => {
      await deps.waitForProjections(await deps.store.headPosition());
      const head = await deps.store.headPosition();
      const moveTo = (instant: string) => clock.set(new Date(Math.max(clock.now().getTime(), Date.parse(instant))));
      const run = await runDueWork(deps, await loadOpenOrganisation(deps.store, id), date, { onDate: (day) => moveTo(startOfDate(day, TIMEZONE)) });
      moveTo(middayOf(date, TIMEZONE));
      await deps.waitForProjections(await awaitSync(deps.store, head, { invoiceIds: run.invoiceIds }, service.services.config.ACCOUNTING_PUSH_WAIT_MS));
      return { status: 200, body: { steps: run.steps } };
    },
    reconnect: async () => {
      if ((await accounting('disconnect')).status !== 200) throw new Error('not disconnected');
      tenants.push(await connectAccounting(service, id));
    },
  };
};

/** The refusals the API document lists for each route that a valid request may still meet in some state. */
const REFUSALS: Readonly<Record<string, readonly string[]>> = {
  units: ['proration_required', 'subscription_not_changeable', 'document_not_available'],
  end: ['invalid_state'],
  restore: ['invalid_state'],
};

type Invoice = { id: string; status: string; subtotal: string; lines: unknown[]; accounting: { sync_status: string; invoice_id: string | null } };
type CreditNote = { id: string; subtotal: string; accounting: { sync_status: string; credit_note_id: string | null }; allocations: { amount: string }[] };
type LedgerDocument = { id: string; status: string; subtotal: string; lines: unknown[]; allocations?: { amount: string }[] };

/** A failed sequence, with the commands sent and their answers. */
export class SequenceFailure extends Error {}

const removed = (status: string) => status === 'deleted' || status === 'voided';
const allocated = (allocations: readonly { amount: string }[]) => formatMoney(allocations.reduce((total, a) => total + parseMoney(a.amount), 0n));

export const runSequence = async (world: LifecycleWorld, start: Start, steps: readonly Step[]): Promise<void> => {
  const { service } = world;
  const log: string[] = [];
  const note = (line: string) => {
    log.push(line);
    if (process.env.SEQUENCE_TRACE) process.stderr.write(`${line}\n`);
  };
  const fail = (what: string): never => {
    throw new SequenceFailure(`${what}\n  ${log.join('\n  ')}`);
  };
  const since = new Date().toISOString();
  // Every sequence from the same day: a sandbox's reset puts its clock back to the live clock.
  world.clock.set(START);
  const org = await (start.live ? inLiveOrganisation : inSandbox)(world, start);
  world.takeRefusals();
  const plan = PLANS[start.plan]!;
  const units = Math.max(start.units, plan.minimum);
  const created = await request(service.app).post('/v1/subscriptions').set(org.auth).set('Idempotency-Key', 'sequence').send({ customer_code: 'C1', plan_code: plan.code, units });
  if (created.status !== 201) fail(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const subscription = created.body as { id: string; start_date: string; renewal_date: string };
  note(`${JSON.stringify(start)} → ${subscription.id} ${subscription.start_date} – ${subscription.renewal_date}`);
  const model: Model = newModel({ id: subscription.id, plan, units, start: subscription.start_date, renewal: subscription.renewal_date, leadDays: start.leadDays });
  const get = async <T>(path: string): Promise<T> => {
    const answer = await request(service.app).get(path).set(org.auth);
    if (answer.status !== 200) fail(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as T;
  };
  const invoices = async () => (await get<{ data: Invoice[] }>(`/v1/invoices?subscription=${model.id}&limit=100`)).data;
  const creditNotes = async () => (await get<{ data: CreditNote[] }>(`/v1/credit_notes?subscription=${model.id}&limit=100`)).data;
  const lifecycle = (path: string, body: object) => request(service.app).post(`/v1/subscriptions/${model.id}/${path}`).set(org.auth).send(body);

  /** Sends one step as a valid request (or does what it says outside the service); what to expect of the model once it is accepted. */
  const send = async (step: Step): Promise<{ route: string; sent: object; answer: Answer; accepted: () => void } | null> => {
    switch (step.kind) {
      case 'units': {
        const units = Math.max(step.units, plan.minimum);
        if (units === model.units) return null;
        const period = currentPeriod(model);
        const effectiveDate = step.prorate ? addDays(period.start, Math.floor((step.at * daysBetween(period.start, period.end)) / 1000)) : null;
        const document = model.renewalInvoice === 'raised' ? step.document : null;
        const body = {
          units,
          ...(effectiveDate ? { prorate: true, effective_date: effectiveDate, ...(step.behaviour ? { proration_behaviour: step.behaviour } : {}) } : {}),
          ...(document ? { document } : {}),
        };
        return {
          route: 'units',
          sent: body,
          answer: await lifecycle('units', body),
          accepted: () => unitsChanged(model, { units, effectiveDate, onRenewal: step.behaviour === 'charge_on_renewal' }),
        };
      }
      case 'end': {
        const removes = step.when === 'now' && (step.deleteUnsent || step.voidApproved);
        const body = { when: step.when, ...(step.when === 'now' ? { delete_unsent_invoices: step.deleteUnsent, void_approved_invoices: step.voidApproved } : {}) };
        return {
          route: 'end',
          sent: body,
          answer: await lifecycle('end', body),
          accepted: () => {
            ended(model, step.when);
            model.removalsAsked ||= removes;
          },
        };
      }
      case 'restore':
        if (model.status !== 'ended' && !model.cancelAtPeriodEnd) return null;
        return {
          route: 'restore',
          sent: {},
          answer: await lifecycle('restore', {}),
          accepted: () => restored(model),
        };
      case 'advance': {
        const date = addDays(model.today, step.days);
        return { route: 'advance', sent: { date }, answer: await org.advance(date), accepted: () => timePasses(model, date) };
      }
      case 'ledger': {
        const pushed = (await invoices()).filter((invoice) => invoice.accounting.invoice_id && !removed(invoice.status));
        const invoice = pushed[step.which % Math.max(pushed.length, 1)];
        if (!invoice) return null;
        // A person in the accounting system: what its rules refuse (paying a draft, approving twice) simply does not happen.
        const tenant = org.tenants.at(-1)!;
        await accountingControl(service, `/tenants/${tenant}/invoices/${invoice.accounting.invoice_id}/${step.action}`);
        note(`${step.action} ${invoice.id} in the accounting system`);
        return null;
      }
      case 'reconnect':
        if (!org.reconnect) return null;
        await org.reconnect();
        note(`moved to another accounting organisation, ${org.tenants.at(-1)}`);
        return null;
      default: {
        const exhaustive: never = step;
        return exhaustive;
      }
    }
  };

  for (const step of steps) {
    const head = await service.services.store.headPosition();
    const done = await send(step);
    const refused = world.takeRefusals();
    if (done) {
      const { route, sent, answer } = done;
      const body = answer.body as { error?: { code: string; message: string }; change?: { document: string | null } };
      const outcome = body.error ? ` ${body.error.code}: ${body.error.message}` : body.change?.document ? ` (${body.change.document})` : '';
      note(`${route} ${JSON.stringify(sent)} → ${answer.status}${outcome}`);
      if (answer.status >= 500) fail(`a ${answer.status}`);
    }
    if (refused.length > 0) fail(`the accounting system refused ${refused.join('; ')}`);
    if (!done) continue;
    if (done.answer.status >= 400) {
      const code = (done.answer.body as { error?: { code?: string } }).error?.code ?? '';
      if (!REFUSALS[done.route]?.includes(code)) fail('a refusal the API document does not list for this request');
      if ((await service.services.store.headPosition()) !== head) fail('a refusal changed something');
      continue;
    }
    if (done.answer.status !== 200) fail(`a ${done.answer.status}`);
    done.accepted();
    const now = await get<{ status: string; units: number; cancel_at_period_end: boolean }>(`/v1/subscriptions/${model.id}`);
    if (now.status !== model.status || now.units !== model.units || now.cancel_at_period_end !== model.cancelAtPeriodEnd) {
      fail(`the subscription is ${JSON.stringify(now)}; expected ${JSON.stringify({ status: model.status, units: model.units, cancel_at_period_end: model.cancelAtPeriodEnd })}`);
    }
  }

  // Every push settled, then each document as the accounting organisation that holds it has it.
  let documents = { invoices: await invoices(), creditNotes: await creditNotes() };
  for (let attempt = 0; [...documents.invoices, ...documents.creditNotes].some((d) => d.accounting.sync_status === 'pending'); attempt++) {
    if (attempt === 50) fail('a document still pending');
    await new Promise((resolve) => setTimeout(resolve, 100));
    documents = { invoices: await invoices(), creditNotes: await creditNotes() };
  }
  const ledgers = await Promise.all(
    org.tenants.map(async (tenant) => {
      const changes = await fetch(`${service.services.accountingUrl}/tenants/${tenant}/changes?since=${encodeURIComponent(since)}`);
      return { tenant, ...((await changes.json()) as { invoices: LedgerDocument[]; creditNotes: LedgerDocument[] }) };
    }),
  );
  const held = (id: string | null, kind: 'invoices' | 'creditNotes') => {
    for (const ledger of ledgers) {
      const document = ledger[kind].find((d) => d.id === id);
      if (document) return { document, inUse: ledger.tenant === org.tenants.at(-1) };
    }
    return fail(`${id} is in no accounting organisation the organisation used`);
  };
  for (const invoice of documents.invoices) {
    if (invoice.accounting.sync_status !== 'synced') fail(`invoice ${invoice.id} is ${invoice.accounting.sync_status}`);
    const { document, inUse } = held(invoice.accounting.invoice_id, 'invoices');
    // One the organisation has since moved away from is removed here only.
    const removalDiffers = removed(document.status) !== removed(invoice.status) || (removed(invoice.status) && document.status !== invoice.status);
    if (document.subtotal !== invoice.subtotal || document.lines.length !== invoice.lines.length || (inUse && removalDiffers)) {
      fail(`invoice ${invoice.id} (${invoice.status}, ${invoice.subtotal}, ${invoice.lines.length} lines) is ${document.status}, ${document.subtotal}, ${document.lines.length} lines in the accounting system`);
    }
  }
  for (const note of documents.creditNotes) {
    if (note.accounting.sync_status !== 'synced') fail(`credit note ${note.id} is ${note.accounting.sync_status}`);
    const { document } = held(note.accounting.credit_note_id, 'creditNotes');
    if (document.subtotal !== note.subtotal || allocated(document.allocations ?? []) !== allocated(note.allocations)) {
      fail(`credit note ${note.id} (${note.subtotal}, allocated ${allocated(note.allocations)}) is ${document.subtotal}, allocated ${allocated(document.allocations ?? [])} in the accounting system`);
    }
  }
  if (model.removalsAsked) return;
  const billed = documents.invoices.filter((i) => !removed(i.status)).reduce((total, i) => total + parseMoney(i.subtotal), 0n);
  const credited = documents.creditNotes.reduce((total, n) => total + parseMoney(n.subtotal), 0n);
  if (billed - credited !== expectedTotal(model)) {
    fail(`invoiced ${formatMoney(billed)} less credited ${formatMoney(credited)} is ${formatMoney(billed - credited)}; the units cost ${formatMoney(expectedTotal(model))} over time`);
  }
};
