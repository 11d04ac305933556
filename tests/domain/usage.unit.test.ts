import fc from 'fast-check';
import { MAX_AMOUNT } from '../../domain/pricing/amount-limits';
import { parseInstant } from '../../domain/pricing/calendar';
import { formatQuantity, quantityOf, quantityText } from '../../domain/pricing/quantity';
import { usageCharge } from '../../domain/pricing/usage-charge';
import { decideUsage, forEachStoredUsage, groupQuantity, type RecordUsage, usageDecider } from '../../domain/usage/decider';
import { type RecordedUsage, recordedUsages, type UsageEvent, usageRecordedData } from '../../domain/usage/events';
import { type SentUsage, sentDetails, type UsageOutcome, type UsageSubscription, usageCalendar, usageCalendarKey, usageSubscriptionOf } from '../../domain/usage/rules';
import { type PricedMeter, pricesDuring } from '../../domain/usage/period-limits';
import { subscriptionDecider } from '../../domain/subscription/decider';
import type { SubscriptionEvent } from '../../domain/subscription/events';
import { initialLifecycle, type SubscriptionState } from '../../domain/subscription/lifecycle';
import { usageSnapshotOf, usageStateFromSnapshot } from '../../domain/usage/snapshot';
import { forgetIdsThrough } from '../../domain/usage/state';
import { deciderSpec } from '../support/decider-spec';
import { subscriptionCreatedData } from '../support/subscription-fixtures';

/** api_calls per_unit at 0.0015 past 1000 included; storage_gb by volume, 1–10 at 5.00 and 11+ at 4.00. */
const METERS: PricedMeter[] = [
  { meterId: 'mtr_calls', meterCode: 'api_calls', pricing: { model: 'per_unit', price: '0.0015', includedUnits: 1000, minimumUnits: 0, tiers: [] } },
  {
    meterId: 'mtr_gb',
    meterCode: 'storage_gb',
    pricing: {
      model: 'volume',
      price: null,
      includedUnits: null,
      minimumUnits: 0,
      tiers: [
        { fromUnits: 1, toUnits: 10, price: '5.0000' },
        { fromUnits: 11, toUnits: null, price: '4.0000' },
      ],
    },
  },
];

/** sub_1 of org_1 in Sydney, monthly from 2026-02-01, billing the meters api_calls and storage_gb. */
const subscription = (overrides: Partial<UsageSubscription> = {}): UsageSubscription => ({
  subscriptionId: 'sub_1',
  organisationId: 'org_1',
  status: 'active',
  startDate: '2026-02-01',
  lastUsageDate: null,
  interval: { unit: 'month', count: 1 },
  timezone: 'Australia/Sydney',
  meters: METERS,
  prices: [{ until: null, meters: METERS }],
  ...overrides,
});

const NOW = '2026-02-10T00:00:00.000Z';

const sent = (eventId: string, overrides: Partial<SentUsage> = {}): SentUsage => ({ eventId, meterCode: 'api_calls', quantity: '1', timestamp: undefined, ...overrides });

const command = (events: SentUsage[], overrides: Partial<RecordUsage> = {}): RecordUsage => ({
  type: 'RecordUsage',
  organisationId: 'org_1',
  subscriptionId: 'sub_1',
  subscription: subscription(),
  now: NOW,
  events,
  storedElsewhere: new Set(),
  storedHere: new Map(),
  ...overrides,
});

/** As stored: the first period in Sydney runs from 2026-02-01 to 2026-03-01. */
const stored = (eventId: string, overrides: Partial<RecordedUsage> = {}): RecordedUsage => ({
  eventId,
  meterId: 'mtr_calls',
  meterCode: 'api_calls',
  quantity: '1.0000',
  timestamp: NOW,
  timestampSent: false,
  periodStart: '2026-02-01',
  periodEnd: '2026-03-01',
  ...overrides,
});

const recorded = (...events: RecordedUsage[]): UsageEvent => ({ type: 'UsageRecorded', data: usageRecordedData('sub_1', 'org_1', NOW, events) });
const billed = (periodStart: string, periodEnd: string): UsageEvent => ({ type: 'UsagePeriodBilled', data: { subscriptionId: 'sub_1', periodStart, periodEnd, invoiceId: 'inv_usage', billedAt: NOW, meters: [] } });

/** given(usage events) → when(command) → then(outcomes in order, events stored). */
const given = (events: UsageEvent[]) => ({
  when: (cmd: RecordUsage) => ({
    then: (outcomes: UsageOutcome[], events_: UsageEvent[]) => {
      const state = events.reduce(usageDecider.evolve, usageDecider.initialState());
      expect(decideUsage(cmd, state)).toEqual({ outcomes, events: events_ });
    },
  }),
});

const created: UsageOutcome = { status: 'created' };
const duplicate: UsageOutcome = { status: 'duplicate' };
const rejected = (code: string) => ({ status: 'rejected', code }) as UsageOutcome;

describe('usage rules', () => {
  it('stores new events with their exact quantity and the billing period in the subscription’s timezone', () => {
    // 2026-02-28T14:00Z is 1 March 01:00 in Sydney: the second period, 2026-03-01 to 2026-04-01.
    given([])
      .when(command([sent('e1', { quantity: '12.5' }), sent('e2', { meterCode: 'storage_gb', quantity: 0.25, timestamp: '2026-02-28T14:00:00Z' })]))
      .then(
        [created, created],
        [
          recorded(
            stored('e1', { quantity: '12.5000' }),
            stored('e2', { meterId: 'mtr_gb', meterCode: 'storage_gb', quantity: '0.2500', timestamp: '2026-02-28T14:00:00.000Z', timestampSent: true, periodStart: '2026-03-01', periodEnd: '2026-04-01' }),
          ),
        ],
      );
  });

  it('stores nothing when every event is rejected or a duplicate', () => {
    given([recorded(stored('e1'))]).when(command([sent('e1'), sent('e2', { quantity: -1 })])).then([duplicate, rejected('invalid_quantity')], []);
  });

  it.each([
    ['subscription_not_found: no such subscription (or another organisation’s)', command([sent('e1')], { subscription: null })],
    ['meter_not_on_plan', command([sent('e1', { meterCode: 'seats' })])],
    ['invalid_quantity: more than 4 places', command([sent('e1', { quantity: '1.00001' })])],
    ['invalid_quantity: negative', command([sent('e1', { quantity: '-1' })])],
    ['invalid_quantity: another type', command([sent('e1', { quantity: true })])],
    ['invalid_quantity: missing', command([sent('e1', { quantity: undefined })])],
    ['invalid_quantity: a number with more than 4 places', command([sent('e1', { quantity: 0.00001 })])],
    ['invalid_timestamp: not ISO 8601', command([sent('e1', { timestamp: '10/02/2026' })])],
    ['invalid_timestamp: no offset', command([sent('e1', { timestamp: '2026-02-10T10:00:00' })])],
    ['invalid_timestamp: no such date', command([sent('e1', { timestamp: '2026-02-30T10:00:00Z' })])],
    ['invalid_timestamp: a number', command([sent('e1', { timestamp: 1767225600 })])],
    // 2026-01-31T12:00Z is 31 January 23:00 in Sydney, the day before the start.
    ['timestamp_out_of_period: before the start', command([sent('e1', { timestamp: '2026-01-31T12:00:00Z' })])],
    ['timestamp_out_of_period: after the end date', command([sent('e1', { timestamp: '2026-02-20T00:00:00Z' })], { subscription: subscription({ lastUsageDate: '2026-02-15' }) })],
    ['event_id_conflict: stored on another of the organisation’s subscriptions', command([sent('e1')], { storedElsewhere: new Set(['e1']) })],
  ])('rejects %s', (label, cmd) => {
    given([]).when(cmd).then([rejected(label.split(':')[0]!)], []);
  });

  it('checks the rules in order: subscription, billable, meter, quantity, timestamp, period', () => {
    given([]).when(command([sent('e1', { meterCode: 'nope', quantity: 'x', timestamp: 'x' })], { subscription: null })).then([rejected('subscription_not_found')], []);
    given([]).when(command([sent('e1', { meterCode: 'nope', quantity: 'x', timestamp: 'x' })])).then([rejected('meter_not_on_plan')], []);
    given([]).when(command([sent('e1', { quantity: 'x', timestamp: 'x' })])).then([rejected('invalid_quantity')], []);
  });

  it('rejects usage in a period already billed: timestamp_out_of_period', () => {
    // The first period (to 2026-03-01) is billed; 2026-03-01T00:00 in Sydney is still February in UTC.
    given([billed('2026-02-01', '2026-03-01')])
      .when(command([sent('e1', { timestamp: '2026-02-28T12:59:59Z' }), sent('e2', { timestamp: '2026-02-28T13:00:00Z' })], { now: '2026-03-05T00:00:00.000Z' }))
      .then(
        [rejected('timestamp_out_of_period'), created],
        [{ type: 'UsageRecorded', data: usageRecordedData('sub_1', 'org_1', '2026-03-05T00:00:00.000Z', [stored('e2', { timestamp: '2026-02-28T13:00:00.000Z', timestampSent: true, periodStart: '2026-03-01', periodEnd: '2026-04-01' })]) }],
      );
  });

  it('rejects everything once an ended or complete subscription’s final usage is billed: subscription_not_billable', () => {
    const ended = subscription({ status: 'ended', lastUsageDate: '2026-02-15' });
    given([]).when(command([sent('e1')], { subscription: ended })).then([created], [recorded(stored('e1'))]);
    given([billed('2026-02-01', '2026-02-15')]).when(command([sent('e1')], { subscription: ended })).then([rejected('subscription_not_billable')], []);
    given([billed('2026-02-01', '2026-02-15')])
      .when(command([sent('e1')], { subscription: subscription({ status: 'complete', lastUsageDate: '2026-02-15' }) }))
      .then([rejected('subscription_not_billable')], []);
    // An active subscription with a billed period is billable.
    given([billed('2026-01-01', '2026-02-01')]).when(command([sent('e1')])).then([created], [recorded(stored('e1'))]);
  });

  it('ignores an older billed period than the one already billed', () => {
    const state = [billed('2026-02-01', '2026-03-01'), billed('2026-01-01', '2026-02-01')].reduce(usageDecider.evolve, usageDecider.initialState());
    expect(state.billedThrough).toBe('2026-03-01');
  });
});

describe('usage de-duplication', () => {
  it('answers a resend with the same details as a duplicate, for as long as the subscription lives', () => {
    const old = stored('e1', { quantity: '2.5000', timestamp: '2026-02-02T00:00:00.000Z', timestampSent: true });
    // Quantity written another way ("2.50", 2.5) and the same instant in another offset are the same details.
    given([recorded(old), billed('2026-02-01', '2026-03-01')])
      .when(command([sent('e1', { quantity: 2.5, timestamp: '2026-02-02T11:00:00+11:00' }), sent('e1', { quantity: '2.50', timestamp: '2026-02-02T00:00:00Z' })], { now: '2027-01-01T00:00:00.000Z' }))
      .then([duplicate, duplicate], []);
  });

  it('answers a resend without a timestamp as a duplicate whatever the clock says', () => {
    given([recorded(stored('e1'))]).when(command([sent('e1')], { now: '2026-02-20T00:00:00.000Z' })).then([duplicate], []);
  });

  it.each([
    ['another quantity', { quantity: '2' }],
    ['another meter', { meterCode: 'storage_gb' }],
    ['a timestamp where none was sent', { timestamp: NOW }],
    ['an invalid quantity', { quantity: 'x' }],
  ])('answers event_id_conflict for the same event_id with %s', (_label, overrides) => {
    given([recorded(stored('e1'))]).when(command([sent('e1', overrides)])).then([rejected('event_id_conflict')], []);
  });

  it('judges a repeat inside one request against the first, and a corrected resend of a rejected event afresh', () => {
    given([])
      .when(command([sent('e1'), sent('e1'), sent('e1', { quantity: '3' }), sent('e2', { quantity: 'x' }), sent('e2', { quantity: '4' })]))
      .then([created, duplicate, rejected('event_id_conflict'), rejected('invalid_quantity'), created], [recorded(stored('e1'), stored('e2', { quantity: '4.0000' }))]);
  });

  it('the decider states the same events as decideUsage', () => {
    deciderSpec(usageDecider)([recorded(stored('e1'))])
      .when(command([sent('e1'), sent('e2')]))
      .then([recorded(stored('e2'))]);
  });

  it('counts each event exactly once in any interleaving of first sends, retries and duplicate batches (property)', () => {
    const distinct = fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), quantity: fc.integer({ min: 0, max: 10_000_000 }) }), {
      selector: (e) => e.id,
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        distinct.chain((events) =>
          fc.tuple(fc.constant(events), fc.array(fc.array(fc.integer({ min: 0, max: events.length - 1 }), { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 8 })),
        ),
        ([events, batches]) => {
          const asSent = (i: number) => sent(events[i]!.id, { quantity: formatQuantity(BigInt(events[i]!.quantity)) });
          let state = usageDecider.initialState();
          const counted = new Map<string, bigint>();
          for (const batch of batches) {
            const decision = decideUsage(command(batch.map(asSent)), state);
            state = decision.events.reduce(usageDecider.evolve, state);
            for (const e of decision.events) if (e.type === 'UsageRecorded') for (const u of recordedUsages(e.data)) counted.set(u.eventId, (counted.get(u.eventId) ?? 0n) + quantityOf(u.quantity)!);
            expect(decision.outcomes.every((o) => o.status !== 'rejected')).toBe(true);
          }
          const sentOnce = new Set(batches.flat());
          expect([...counted.keys()].sort()).toEqual([...sentOnce].map((i) => events[i]!.id).sort());
          for (const i of sentOnce) expect(counted.get(events[i]!.id)).toBe(BigInt(events[i]!.quantity));
        },
      ),
    );
  });
});

describe('usage ids kept from the events the id index has not read', () => {
  /** The state after these events, told the ids up to `knownThrough` are found elsewhere. */
  const folded = (events: UsageEvent[], knownThrough: number) => {
    const state = events.reduce(usageDecider.evolve, usageDecider.initialState());
    forgetIdsThrough(state.ids, knownThrough);
    return state;
  };
  const log = [recorded(stored('e1'), stored('e2')), recorded(stored('e3')), billed('2026-01-01', '2026-02-01'), recorded(stored('e4'))];

  it('drops the ids of the events up to the revision told, keeping the totals, the billing and the later ids', () => {
    const state = folded(log, 1);
    expect([...state.ids.seen.keys()]).toEqual(['e4']);
    expect(state.ids).toMatchObject({ folded: 4, knownThrough: 1, events: [{ revision: 3, ids: 1 }] });
    expect(state.totals.get('2026-02-01')?.get('mtr_calls')).toEqual({ quantity: 40_000n, events: 4 });
    expect(state.billedThrough).toBe('2026-02-01');
    // Told an earlier revision afterwards: nothing comes back, nothing more goes.
    forgetIdsThrough(state.ids, 0);
    expect(state.ids.knownThrough).toBe(1);
    forgetIdsThrough(state.ids, 3);
    expect(state.ids.seen.size).toBe(0);
  });

  it('told before folding, never holds the ids up to that revision', () => {
    const state = usageDecider.initialState();
    forgetIdsThrough(state.ids, 1);
    log.reduce(usageDecider.evolve, state);
    expect([...state.ids.seen.keys()]).toEqual(['e4']);
  });

  it('judges an id it no longer holds from the details the caller read: the same a duplicate, others a conflict', () => {
    const storedHere = new Map([
      ['e1', sentDetails(sent('e1'))],
      ['e3', sentDetails(sent('e3'))],
    ]);
    const state = folded(log, 1);
    expect(decideUsage(command([sent('e1'), sent('e3', { quantity: '2' }), sent('e4'), sent('e5')], { storedHere }), state)).toEqual({
      outcomes: [duplicate, rejected('event_id_conflict'), duplicate, created],
      events: [recorded(stored('e5'))],
    });
  });

  it('decides as a state holding every id, whatever it forgot between batches, given the forgotten ids found in the log (property)', () => {
    const batchOf = fc.array(fc.record({ id: fc.integer({ min: 0, max: 15 }), quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(fc.tuple(batchOf, fc.integer({ min: -1, max: 12 })), { minLength: 1, maxLength: 12 }), (batches) => {
        let whole = usageDecider.initialState();
        const forgetting = usageDecider.initialState();
        const appended: UsageEvent[] = [];
        for (const [batch, forgetThrough] of batches) {
          forgetIdsThrough(forgetting.ids, Math.min(forgetThrough, appended.length - 1));
          const storedHere = new Map<string, string>();
          appended.slice(0, forgetting.ids.knownThrough + 1).forEach((event) => {
            if (event.type === 'UsageRecorded') forEachStoredUsage(event.data, (eventId, details) => storedHere.set(eventId, details));
          });
          const sentNow = batch.map(({ id, quantity }) => sent(`e${id}`, { quantity: String(quantity) }));
          const expected = decideUsage(command(sentNow), whole);
          expect(decideUsage(command(sentNow, { storedHere }), forgetting)).toEqual(expected);
          whole = expected.events.reduce(usageDecider.evolve, whole);
          expected.events.reduce(usageDecider.evolve, forgetting);
          appended.push(...expected.events);
        }
        expect(forgetting.ids.seen.size).toBeLessThanOrEqual(whole.ids.seen.size);
      }),
    );
  });
});

describe('usage state snapshots', () => {
  const log = [
    recorded(stored('e1'), stored('e2', { quantity: '999999999999.9999' }), stored('e3', { meterId: 'mtr_gb', meterCode: 'storage_gb', quantity: '0.0001' })),
    billed('2026-01-01', '2026-02-01'),
    recorded(stored('e4', { quantity: '999999999999.9999' }), stored('e5', { periodStart: '2026-03-01', periodEnd: '2026-04-01' })),
  ];

  it('holds the totals (exact past the largest amount an event may report), what is billed and how far it folded, none of the ids', () => {
    const whole = log.reduce(usageDecider.evolve, usageDecider.initialState());
    const read = usageStateFromSnapshot(usageSnapshotOf(whole), 2)!;
    expect(read.totals).toEqual(whole.totals);
    expect(read.totals.get('2026-02-01')?.get('mtr_calls')).toEqual({ quantity: 20_000_000_000_009_998n, events: 3 });
    expect(read.billed).toEqual(whole.billed);
    expect(read.billedThrough).toBe('2026-02-01');
    expect(read.ids).toEqual({ seen: new Map(), events: [], folded: 3, knownThrough: 2 });
    // Folded on from it, with the forgotten ids from the log, it decides as the whole fold.
    const next = [recorded(stored('e6'))];
    const fromSnapshot = next.reduce(usageDecider.evolve, read);
    const storedHere = new Map([['e1', sentDetails(sent('e1'))]]);
    const events = [sent('e1'), sent('e6'), sent('e1', { quantity: '2' }), sent('e7')];
    expect(decideUsage(command(events, { storedHere }), fromSnapshot)).toEqual(decideUsage(command(events), next.reduce(usageDecider.evolve, whole)));
  });

  it('reads nothing from text that is not a snapshot of its format', () => {
    const text = usageSnapshotOf(usageDecider.initialState());
    expect(usageStateFromSnapshot(text, -1)).toEqual(usageDecider.initialState());
    expect(usageStateFromSnapshot(text.replace('"format":1', '"format":2'), -1)).toBeNull();
    expect(usageStateFromSnapshot('{"format":1', -1)).toBeNull();
    expect(usageStateFromSnapshot(JSON.stringify({ ...JSON.parse(text), totals: [['2026-02-01', 'mtr_calls', '1.5', 1]] }), -1)).toBeNull();
  });
});

describe('usage limits of a period', () => {
  /** `dear` per_unit at 1000.0000 a unit: 999,999,999 units bill 999,999,999,000.0000, a unit short of the most. */
  const DEAR: PricedMeter = { meterId: 'mtr_dear', meterCode: 'dear', pricing: { model: 'per_unit', price: '1000.0000', includedUnits: null, minimumUnits: 0, tiers: [] } };
  const FREE: PricedMeter = { meterId: 'mtr_free', meterCode: 'free', pricing: { model: 'per_unit', price: '0.0000', includedUnits: null, minimumUnits: 0, tiers: [] } };
  const metered = (...meters: PricedMeter[]) => subscription({ meters, prices: [{ until: null, meters }] });
  const dear = (eventId: string, quantity: string, overrides: Partial<RecordedUsage> = {}) => stored(eventId, { meterId: 'mtr_dear', meterCode: 'dear', quantity, ...overrides });
  const refused = (message: string): UsageOutcome => ({ status: 'rejected', code: 'invalid_quantity', message });

  it('refuses an event that takes the period’s usage charges past 999,999,999,999.9999, and stores what fits, in the order sent', () => {
    given([recorded(dear('e1', '999999999.0000'))])
      .when(command([sent('e2', { meterCode: 'dear', quantity: '1' }), sent('e3', { meterCode: 'dear', quantity: '0.9999' }), sent('e4', { meterCode: 'dear', quantity: '0.0001' })], { subscription: metered(DEAR) }))
      .then(
        [
          refused('quantity takes the usage charges of the period from 2026-02-01 to 1000000000000.0000; the most is 999999999999.9999.'),
          created,
          refused('quantity takes the usage charges of the period from 2026-02-01 to 1000000000000.0000; the most is 999999999999.9999.'),
        ],
        [recorded(dear('e3', '0.9999'))],
      );
  });

  it('counts every meter of the period and only that period: each fits alone, together they do not', () => {
    const calls = METERS[0]!;
    // 999,999,999 dear units bill 999,999,999,000.0000 and 666,666 calls past the 1,000 included 999.9990: one call more is 0.0015 too many.
    given([recorded(dear('e1', '999999999.0000'), stored('e2', { quantity: '667666.0000' }))])
      .when(
        command([sent('e3', { quantity: '1', timestamp: '2026-02-05T00:00:00Z' }), sent('e4', { quantity: '1', timestamp: '2026-03-05T00:00:00Z' })], { subscription: metered(DEAR, calls), now: '2026-03-10T00:00:00.000Z' }),
      )
      .then(
        [refused('quantity takes the usage charges of the period from 2026-02-01 to 1000000000000.0005; the most is 999999999999.9999.'), created],
        [
          { type: 'UsageRecorded', data: usageRecordedData('sub_1', 'org_1', '2026-03-10T00:00:00.000Z', [stored('e4', { timestamp: '2026-03-05T00:00:00.000Z', timestampSent: true, periodStart: '2026-03-01', periodEnd: '2026-04-01' })]) },
        ],
      );
  });

  it('prices a period at the prices it had: dear before a renewal’s new prices, free after', () => {
    const repriced = subscription({ meters: [{ ...DEAR, pricing: FREE.pricing }], prices: [{ until: '2026-03-01', meters: [DEAR] }, { until: null, meters: [{ ...DEAR, pricing: FREE.pricing }] }] });
    given([])
      .when(command([sent('e1', { meterCode: 'dear', quantity: '999999999999', timestamp: '2026-02-05T00:00:00Z' }), sent('e2', { meterCode: 'dear', quantity: '999999999999', timestamp: '2026-03-05T00:00:00Z' })], { subscription: repriced, now: '2026-03-10T00:00:00.000Z' }))
      .then(
        [refused('quantity takes the usage charges of the period from 2026-02-01 to 999999999999000.0000; the most is 999999999999.9999.'), created],
        [
          { type: 'UsageRecorded', data: usageRecordedData('sub_1', 'org_1', '2026-03-10T00:00:00.000Z', [dear('e2', '999999999999.0000', { timestamp: '2026-03-05T00:00:00.000Z', timestampSent: true, periodStart: '2026-03-01', periodEnd: '2026-04-01' })]) },
        ],
      );
  });

  it('refuses a meter’s period total past 9,007,199,254,740,991, what its line’s units can state exactly, whatever it bills', () => {
    // A total past what one event may report, as thousands of events make it.
    const state = usageDecider.initialState();
    state.totals.set('2026-02-01', new Map([['mtr_free', { quantity: 90_071_992_547_409_900_000n, events: 9008 }]]));
    expect(decideUsage(command([sent('e2', { meterCode: 'free', quantity: '1.0001' }), sent('e3', { meterCode: 'free', quantity: '1' })], { subscription: metered(FREE) }), state)).toEqual({
      outcomes: [refused("quantity takes free's usage in the period from 2026-02-01 to 9007199254740991.0001; the most one meter reports in a period is 9007199254740991.0000."), created],
      events: [recorded(stored('e3', { meterId: 'mtr_free', meterCode: 'free' }))],
    });
  });

  it('judges a batch as the same events sent one at a time, and never lets a period bill past the most (property)', () => {
    // Volume prices fall at 1,000,000 units, so a period's charges can rise past the most and fall back.
    const VOLUME: PricedMeter = {
      meterId: 'mtr_vol',
      meterCode: 'vol',
      pricing: { model: 'volume', price: null, includedUnits: null, minimumUnits: 0, tiers: [{ fromUnits: 1, toUnits: 999999, price: '2000000.0000' }, { fromUnits: 1000000, toUnits: null, price: '0.5000' }] },
    };
    const facts = metered(DEAR, VOLUME);
    const event = fc.record({
      meterCode: fc.constantFrom('dear', 'vol'),
      quantity: fc.oneof(fc.constantFrom('999999999', '500000', '1', '0.5', '999999999999'), fc.integer({ min: 0, max: 2_000_000 }).map(String)),
      march: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 8 }), (events) => {
        const batch = events.map((e, i) => sent(`e${i}`, { meterCode: e.meterCode, quantity: e.quantity, timestamp: e.march ? '2026-03-05T00:00:00Z' : '2026-02-05T00:00:00Z' }));
        const at = { subscription: facts, now: '2026-03-10T00:00:00.000Z' };
        const together = decideUsage(command(batch, at), usageDecider.initialState());
        let state = usageDecider.initialState();
        const alone = batch.map((one) => {
          const decision = decideUsage(command([one], at), state);
          state = decision.events.reduce(usageDecider.evolve, state);
          return decision.outcomes[0];
        });
        expect(together.outcomes).toEqual(alone);
        for (const [periodStart, totals] of state.totals) {
          const charges = [DEAR, VOLUME].reduce((sum, meter) => sum + usageCharge(meter.pricing, totals.get(meter.meterId)?.quantity ?? 0n).amount, 0n);
          expect(charges <= MAX_AMOUNT).toBe(true);
          expect(periodStart).toMatch(/^2026-0[23]-01$/);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('usage facts', () => {
  it('reads a subscription’s facts only for its own organisation', () => {
    const created = subscriptionCreatedData();
    const state: SubscriptionState = { status: 'active', subscription: created, life: { ...initialLifecycle(created), endDate: '2026-06-01' } };
    expect(usageSubscriptionOf(state, { organisationId: 'org_2', resetGeneration: 0 })).toBeNull();
    expect(usageSubscriptionOf({ status: 'none' }, { organisationId: 'org_1', resetGeneration: 0 })).toBeNull();
    expect(usageSubscriptionOf(state, { organisationId: 'org_1', resetGeneration: 0 })).toMatchObject({ subscriptionId: 'sub_1', startDate: '2026-02-01', timezone: 'Australia/Sydney' });
    // Set to end on its renewal date 2026-06-01: that date starts no period, so its last billed usage day is the one before.
    expect(usageSubscriptionOf(state, { organisationId: 'org_1', resetGeneration: 0 })?.lastUsageDate).toBe('2026-05-31');
    // Ended now on 2026-06-01: the end date is its last day, and its usage is billed on the final usage invoice.
    const endedNow = { ...state, status: 'ended' as const } as Parameters<typeof usageSubscriptionOf>[0];
    expect(usageSubscriptionOf(endedNow, { organisationId: 'org_1', resetGeneration: 0 })?.lastUsageDate).toBe('2026-06-01');
  });

  it('prices each period at the meter rates in force during it: a CPI uplift prices the periods from its renewal on, once decided', () => {
    const created = subscriptionCreatedData({
      meters: [{ meterId: 'mtr_calls', meterCode: 'api_calls', name: 'API calls', model: 'per_unit', price: '0.0100', includedUnits: 100, tiers: [], minimumUnits: 0, planMinimumUnits: 0 }],
    });
    const meterId = 'mtr_calls';
    const renewedAt = (periodStart: string, price: string, renewalDate: string): SubscriptionEvent[] => [
      { type: 'SubscriptionCpiUplifted', data: { subscriptionId: 'sub_1', periodStart, year: 2026, percent: '100.00', price: '20.0000', tiers: [], meters: [{ meterId, price, tiers: [] }] } },
      { type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1', periodStart, renewalDate } },
    ];
    const history: SubscriptionEvent[] = [{ type: 'SubscriptionCreated', data: created }, ...renewedAt('2026-03-01', '0.0200', '2026-04-01'), ...renewedAt('2026-04-01', '0.0400', '2026-05-01')];
    const factsAfter = (events: SubscriptionEvent[]) => usageSubscriptionOf(events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()), { organisationId: 'org_1', resetGeneration: 0 })!;
    const pricesIn = (events: SubscriptionEvent[]) => {
      const facts = factsAfter(events);
      return ['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01'].map((periodStart) => pricesDuring(facts.prices, periodStart).find((m) => m.meterId === meterId)!.pricing.price);
    };
    expect(pricesIn(history)).toEqual(['0.0100', '0.0200', '0.0400', '0.0400']);
    expect(factsAfter(history).meters[0]!.pricing.price).toBe('0.0400');
    // The next uplift is decided with the renewal invoice, before its renewal: it prices the period it starts already.
    const decided = [...history, renewedAt('2026-05-01', '0.0800', '2026-06-01')[0]!];
    expect(pricesIn(decided)).toEqual(['0.0100', '0.0200', '0.0400', '0.0800']);
    expect(factsAfter(decided).meters[0]!.pricing.price).toBe('0.0400');
  });

  it.each([
    ['12.5', 125000n],
    ['0', 0n],
    ['007.0100', 70100n],
    [0.1, 1000n],
    [12.3456, 123456n],
    ['999999999999.9999', 9_999_999_999_999_999n],
    [999999999999, 9_999_999_999_990_000n],
  ])('reads the quantity %p exactly', (value, expected) => {
    expect(quantityOf(value)).toBe(expected);
  });

  it.each([['1.23456'], ['-1'], ['.5'], ['5.'], ['1e3'], [' 1'], [''], [-0.5], [1e-7], [Number.NaN], [Infinity], [null], [[1]], ['1000000000000'], [1e21]])('refuses the quantity %p', (value) => {
    expect(quantityOf(value)).toBeNull();
  });

  it('reads a quantity as text exactly as formatQuantity(quantityOf(…)), without the bigint', () => {
    const reference = (value: unknown) => {
      const quantity = quantityOf(value);
      return quantity === null ? null : formatQuantity(quantity);
    };
    const decimalText = fc
      .tuple(fc.stringMatching(/^-?\d{1,14}$/), fc.option(fc.stringMatching(/^\d{0,6}$/), { nil: undefined }))
      .map(([whole, places]) => (places === undefined ? whole : `${whole}.${places}`));
    const value = fc.oneof(decimalText, fc.string(), fc.double(), fc.integer(), fc.constantFrom<unknown>(null, true, [1], '999999999999.9999', '1000000000000', 1e21, 1e-7, '0000000000001.5'));
    fc.assert(fc.property(value, (v) => expect(quantityText(v)).toBe(reference(v))), { numRuns: 5000 });
    expect(quantityText('007.01')).toBe('7.0100');
    expect(quantityText(0.1)).toBe('0.1000');
  });

  it('remembers local dates by UTC quarter hour, which no offset splits (Kathmandu is +05:45)', () => {
    const calendar = usageCalendar(subscription({ timezone: 'Asia/Kathmandu' }));
    expect(calendar.dateOf('2026-02-09T18:00:00.000Z')).toBe('2026-02-09');
    expect(calendar.dateOf('2026-02-09T18:14:59.999Z')).toBe('2026-02-09');
    expect(calendar.dateOf('2026-02-09T18:15:00.000Z')).toBe('2026-02-10');
    expect(calendar.periodOf('2026-02-10')).toEqual({ index: 0, start: '2026-02-01', end: '2026-03-01' });
  });

  it('keys a calendar by every fact it is computed from, so one kept between batches is never used for other facts', () => {
    const key = usageCalendarKey(subscription(), null);
    expect(usageCalendarKey(subscription({ meters: [], status: 'ended' }), null)).toBe(key);
    for (const other of [
      usageCalendarKey(subscription(), '2026-03-01'),
      usageCalendarKey(subscription({ lastUsageDate: '2026-02-20' }), null),
      usageCalendarKey(subscription({ timezone: 'UTC' }), null),
      usageCalendarKey(subscription({ startDate: '2026-02-02' }), null),
      usageCalendarKey(subscription({ interval: { unit: 'month', count: 3 } }), null),
      usageCalendarKey(subscription({ interval: { unit: 'year', count: 1 } }), null),
    ]) {
      expect(other).not.toBe(key);
    }
  });

  it('decides with a calendar kept from an earlier batch exactly as with a fresh one', () => {
    // Sydney is +11:00 in February: 2026-02-28T13:00Z is 1 March there, in the second period.
    const events = [sent('e1', { timestamp: '2026-02-28T12:59:59Z' }), sent('e2', { timestamp: '2026-02-28T13:00:00Z' }), sent('e3', { timestamp: '2026-01-31T12:59:59Z' })];
    const kept = usageCalendar(subscription());
    decideUsage(command([sent('e0', { timestamp: '2026-02-28T13:30:00Z' })], { calendar: kept }), usageDecider.initialState());
    const state = usageDecider.initialState();
    expect(decideUsage(command(events, { calendar: kept }), state)).toEqual(decideUsage(command(events), state));
    expect(decideUsage(command(events, { calendar: kept }), state).outcomes).toEqual([created, created, rejected('timestamp_out_of_period')]);
  });

  it('sums a group’s stored quantities exactly, repeated or not', () => {
    // 1.5 + 1.5 + 0.0001 + 1.5 = 4.5001
    expect(formatQuantity(groupQuantity([{ quantity: '1.5000' }, { quantity: '1.5000' }, { quantity: '0.0001' }, { quantity: '1.5000' }]))).toBe('4.5001');
    expect(groupQuantity([])).toBe(0n);
    fc.assert(
      fc.property(fc.array(fc.constantFrom('0.0000', '1.5000', '2.0001', '999999999999.9999')), (texts) => {
        expect(groupQuantity(texts.map((quantity) => ({ quantity })))).toBe(texts.reduce((sum, text) => sum + quantityOf(text)!, 0n));
      }),
    );
  });

  it('reads ISO 8601 instants with an offset as UTC', () => {
    expect(parseInstant('2026-03-15T10:00:00+01:00')).toBe('2026-03-15T09:00:00.000Z');
    expect(parseInstant('2026-03-15T10:00Z')).toBe('2026-03-15T10:00:00.000Z');
    expect(parseInstant('2026-03-15')).toBeNull();
    expect(parseInstant('1969-12-31T23:59:59Z')).toBeNull();
    expect(parseInstant('9999-12-31T23:59:59-01:00')).toBeNull();
  });
});
