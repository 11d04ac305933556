import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { billUsagePeriod, usageInvoiceId, usagePeriodsDue } from '../../commands/usage/bill-usage-period';
import { recordUsage } from '../../commands/usage/record-usage';
import { eventCatalogue } from '../../domain/event-catalogue';
import { invoiceStream } from '../../domain/invoice/events';
import { organisationStream } from '../../domain/organisation/events';
import type { DomainEvent } from '../../domain/shared/decider';
import { subscriptionStream } from '../../domain/subscription/events';
import { usageRecordedData, usageStream } from '../../domain/usage/events';
import { fixedClock } from '../../infra/clock/clock';
import { realClocks } from '../../infra/clock/clocks';
import type { EventStore } from '../../infra/event-store/port';
import { SqliteEventStore } from '../../infra/event-store/sqlite';
import { derivedId } from '../../infra/ids';
import { openDatabase } from '../../infra/sqlite/open-database';
import { raisedInvoiceData, testMetadata } from '../support/events';
import { handlerSpec, lookupsOf, specCaller } from '../support/handler-spec';
import { organisationSettings } from '../support/organisation-fixtures';
import { racingStore } from '../support/racing-store';
import { subscriptionCreatedData } from '../support/subscription-fixtures';

/** sub_1 in Sydney, monthly from 2026-02-01, 10 % off: API calls at 0.0100 each, the first 100 included. */
const meters = [{ meterId: 'mtr_calls', meterCode: 'api_calls', name: 'API calls', model: 'per_unit' as const, price: '0.0100', includedUnits: 100, tiers: [], minimumUnits: 0, planMinimumUnits: 0 }];
const created = { type: 'SubscriptionCreated', data: subscriptionCreatedData({ meters, discountPercent: '10.00', firstInvoiceId: null }) };
const organisationCreated = { type: 'OrganisationCreated', data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings: organisationSettings } };
/** 2 March, 10:00 in Sydney: the first period is over. */
const NOW = '2026-03-01T23:00:00.000Z';
const request = { organisationId: 'org_1', subscriptionId: 'sub_1', periodStart: '2026-02-01' };
const invoiceId = usageInvoiceId('sub_1', '2026-02-01');
const lineId = derivedId('invoiceLine', invoiceId, 'mtr_calls');

const stored = (eventId: string, quantity: string) => ({
  eventId,
  meterId: 'mtr_calls',
  meterCode: 'api_calls',
  quantity,
  timestamp: '2026-02-10T00:00:00.000Z',
  timestampSent: true,
  periodStart: '2026-02-01',
  periodEnd: '2026-03-01',
});
const recorded = (...events: ReturnType<typeof stored>[]) => ({ type: 'UsageRecorded', data: usageRecordedData('sub_1', 'org_1', NOW, events) });
const billedEvent = (quantity: string, events: number) => ({
  type: 'UsagePeriodBilled',
  data: { subscriptionId: 'sub_1', periodStart: '2026-02-01', periodEnd: '2026-03-01', invoiceId, billedAt: NOW, meters: [{ meterId: 'mtr_calls', quantity, events }] },
});
/** The invoice of `quantity` calls: (quantity − 100) × 0.01, 10 % off. */
const raisedEvent = (usageQuantity: string, units: number, amount: string, discount: string, charge: string, reported: string) => ({
  type: 'InvoiceRaised',
  data: {
    ...raisedInvoiceData(NOW, charge),
    invoiceId,
    dueDate: '2026-03-15T23:00:00.000Z',
    lines: [
      {
        lineId,
        type: 'usage',
        revenueType: 'usage',
        meterId: 'mtr_calls',
        usageQuantity,
        name: 'API calls',
        description: `Usage 2026-02-01 to 2026-03-01: ${reported} reported, 100 included`,
        units,
        quantity: '1',
        unitAmount: charge,
        amount,
        discountAmount: discount,
        chargeAmount: charge,
        effectiveDate: '2026-01-31T13:00:00.000Z',
        account: 'usage_revenue',
      },
    ],
  },
});

const given = (usage: DomainEvent[], more: Record<string, DomainEvent[]> = {}) => ({
  [organisationStream('org_1')]: [organisationCreated],
  [subscriptionStream('sub_1')]: [created],
  ...(usage.length > 0 ? { [usageStream('sub_1')]: usage } : {}),
  ...more,
});

describe('billUsagePeriod: given streams, when the close, then UsagePeriodBilled and the usage invoice', () => {
  const spec = handlerSpec({ now: NOW });

  // 250.5 + 100 = 350.5 calls; 100 included → 250.5 × 0.01 = 2.505 → 2.5050; 10 % → 0.2505 (0.25050); 2.2545.
  const february = [recorded(stored('a', '250.5000'), stored('b', '100.0000'))];
  const februaryBilled = {
    [usageStream('sub_1')]: [billedEvent('350.5000', 2)],
    [invoiceStream(invoiceId)]: [raisedEvent('250.5000', 251, '2.5050', '0.2505', '2.2545', '350.5000')],
  };

  it('bills the period from the stream’s totals and raises its invoice under the derived id', async () => {
    await spec.given(given(february)).when((deps) => billUsagePeriod(deps, request, specCaller)).then(februaryBilled);
  });

  it('finishes what a crash interrupted: the period billed but its invoice not raised, it raises the invoice of what was billed', async () => {
    // The stream holds 350.5 calls, but the billing recorded 150 (as it stood): the invoice bills the 150.
    await spec
      .given(given([recorded(stored('a', '350.5000')), billedEvent('150.0000', 1)]))
      .when((deps) => billUsagePeriod(deps, request, specCaller))
      .then({ [invoiceStream(invoiceId)]: [raisedEvent('50.0000', 50, '0.5000', '0.0500', '0.4500', '150.0000')] });
  });

  // The scheduler's renewal (with its CPI uplift) is another branch's work: this runs once its events exist.
  const renewals = eventCatalogue.has('SubscriptionRenewed') && eventCatalogue.has('SubscriptionCpiUplifted') ? it : it.skip;
  renewals('prices a period at the meter rates in force during it: a CPI uplift at the renewal after it does not reprice it', async () => {
    // CPI doubles the calls rate to 0.0200 from the period starting 1 March; February's usage still bills at 0.0100.
    const uplifted = {
      type: 'SubscriptionCpiUplifted',
      data: { subscriptionId: 'sub_1', periodStart: '2026-03-01', year: 2026, percent: '100.00', price: '20.0000', tiers: [], meters: [{ meterId: 'mtr_calls', price: '0.0200', tiers: [] }] },
    };
    const renewed = { type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1', periodStart: '2026-03-01', renewalDate: '2026-04-01' } };
    await spec
      .given({ ...given(february), [subscriptionStream('sub_1')]: [created, uplifted, renewed] })
      .when((deps) => billUsagePeriod(deps, request, specCaller))
      .then(februaryBilled);
  });

  it('appends nothing when the period and its invoice are both done', async () => {
    await spec
      .given(given([recorded(stored('a', '350.5000')), billedEvent('350.5000', 1)], { [invoiceStream(invoiceId)]: [raisedEvent('250.5000', 251, '2.5050', '0.2505', '2.2545', '350.5000')] }))
      .when((deps) => billUsagePeriod(deps, request, specCaller))
      .then({});
  });

  it('records a period that bills nothing without an invoice', async () => {
    await spec
      .given(given([recorded(stored('a', '100.0000'))]))
      .when(async (deps) => expect(await billUsagePeriod(deps, request, specCaller)).toMatchObject({ invoiceId: null, billedNow: true, periodEnd: '2026-03-01' }))
      .then({ [usageStream('sub_1')]: [{ ...billedEvent('100.0000', 1), data: { ...billedEvent('100.0000', 1).data, invoiceId: null } }] });
  });

  it('refuses another organisation’s subscription, and a period not over', async () => {
    const other = { type: 'OrganisationCreated', data: { ...organisationCreated.data, organisationId: 'org_2' } };
    await spec
      .given({ ...given([]), [organisationStream('org_2')]: [other] })
      .when((deps) => billUsagePeriod(deps, { ...request, organisationId: 'org_2' }, specCaller))
      .thenRefuses('subscription_not_found', 'subscription');
    await handlerSpec({ now: '2026-02-28T12:00:00.000Z' })
      .given(given([]))
      .when((deps) => billUsagePeriod(deps, request, specCaller))
      .thenRefuses('usage_period_open');
  });
});

describe('billUsagePeriod: once, whatever runs it', () => {
  const seed = async (store: EventStore) => {
    for (const [streamId, events] of Object.entries(given([recorded(stored('a', '350.5000'))]))) {
      await store.append(streamId, events.map((e) => ({ id: randomUUID(), type: e.type, version: eventCatalogue.get(e.type)?.version ?? 1, data: e.data, metadata: testMetadata() })), 'no_stream');
    }
  };
  const countOf = async (store: EventStore, type: string) => (await store.readAll(0n, 10_000)).filter((e) => e.type === type).length;
  const clocks = realClocks(fixedClock(new Date(NOW)));

  it('tells the scheduler which periods are due (usage_grace_days 1 after each ends), and none once billed', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    await seed(store);
    // 2 March in Sydney: February's usage ended on 1 March, due a day later.
    expect(await usagePeriodsDue({ store, clocks }, 'org_1', 'sub_1')).toEqual([{ periodStart: '2026-02-01', due: '2026-03-02' }]);
    expect(await usagePeriodsDue({ store, clocks: realClocks(fixedClock(new Date('2026-03-01T12:00:00.000Z'))) }, 'org_1', 'sub_1')).toEqual([]);
    await billUsagePeriod({ store, clocks }, request, specCaller);
    expect(await usagePeriodsDue({ store, clocks }, 'org_1', 'sub_1')).toEqual([]);
    expect(await usagePeriodsDue({ store, clocks }, 'org_1', 'sub_nothing')).toEqual([]);
    await store.close();
  });

  it('run twice, it raises one invoice and answers the same period both times', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    await seed(store);
    const first = await billUsagePeriod({ store, clocks }, request, specCaller);
    const second = await billUsagePeriod({ store, clocks }, request, specCaller);
    expect(first).toMatchObject({ invoiceId, billedNow: true });
    expect(second).toMatchObject({ invoiceId, billedNow: false, position: 0n });
    expect(await countOf(store, 'UsagePeriodBilled')).toBe(1);
    expect(await countOf(store, 'InvoiceRaised')).toBe(1);
    await store.close();
  });

  it('run by two processes at once (two connections to one log), it raises one invoice', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'usage-bill-')), 'events.db');
    const setup = new SqliteEventStore(openDatabase(file));
    await seed(setup);
    await setup.close();
    const stores = [new SqliteEventStore(openDatabase(file)), new SqliteEventStore(openDatabase(file))];
    const answers = await Promise.all([...stores, ...stores].map((store) => billUsagePeriod({ store, clocks }, request, specCaller)));
    expect(answers.filter((a) => a.billedNow)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.invoiceId))).toEqual(new Set([invoiceId]));
    expect(await countOf(stores[0]!, 'UsagePeriodBilled')).toBe(1);
    expect(await countOf(stores[0]!, 'InvoiceRaised')).toBe(1);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('lets no event slip into a period as it is billed: one stored meanwhile conflicts the append and is billed with it', async () => {
    const store = new SqliteEventStore(openDatabase(':memory:'));
    await seed(store);
    const { store: racing, beforeNextAppend } = racingStore(store);
    // Another process stores 49.5 more calls between this close's load and its append.
    beforeNextAppend(() =>
      store.append(usageStream('sub_1'), [{ id: randomUUID(), type: 'UsageRecorded', version: 2, data: recorded(stored('late', '49.5000')).data, metadata: testMetadata() }], 'any'),
    );
    await billUsagePeriod({ store: racing, clocks }, request, specCaller);
    const billed = (await store.readStream(usageStream('sub_1'))).filter((e) => e.type === 'UsagePeriodBilled');
    expect(billed.map((e) => (e.data as { meters: unknown }).meters)).toEqual([[{ meterId: 'mtr_calls', quantity: '400.0000', events: 2 }]]);
    // And an event dated in the period after it is billed is refused, not stored and left unbilled.
    const lookups = lookupsOf({});
    const late = await recordUsage({ store, clocks, lookups }, specCaller, { id: 'org_1', livemode: true }, [
      { eventId: 'later', subscription: 'sub_1', meterCode: 'api_calls', quantity: '1', timestamp: '2026-02-27T00:00:00Z' },
    ]);
    expect(late.outcomes).toEqual([{ status: 'rejected', code: 'timestamp_out_of_period' }]);
    await store.close();
  });
});
