import fc from 'fast-check';
import type { PlanDefinition, Tier } from '../../domain/catalogue/types';
import { nextPeriodCreditNote } from '../../domain/credit-note/next-period-credit-note';
import { unitChangeCreditNote } from '../../domain/credit-note/unit-change-credit-note';
import { carriedChargesInvoice } from '../../domain/invoice/carried-charges-invoice';
import { reBilledNextPeriodInvoice } from '../../domain/invoice/next-period-invoice';
import { renewalInvoice } from '../../domain/invoice/renewal-invoice';
import { unitChangeInvoice } from '../../domain/invoice/unit-change-invoice';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { addDays, daysBetween } from '../../domain/pricing/calendar';
import { divideRounded, parseMoney } from '../../domain/pricing/money';
import { planAmount } from '../../domain/pricing/pricing';
import type { ChangeUnits } from '../../domain/subscription/change-units';
import { subscriptionDecider } from '../../domain/subscription/decider';
import type { EndSubscription, InvoiceFacts } from '../../domain/subscription/end';
import type { SubscriptionCreatedData, SubscriptionEvent } from '../../domain/subscription/events';
import type { SubscriptionUnitsChangedData } from '../../domain/subscription/lifecycle-events';
import type { RestoreSubscription } from '../../domain/subscription/restore';
import { deciderSpec } from '../support/decider-spec';
import { openOrganisation, seatsPlan, subscriptionCreatedData } from '../support/subscription-fixtures';

const spec = deciderSpec(subscriptionDecider);

const tiers: Tier[] = [
  { fromUnits: 1, toUnits: 10, price: '5.0000' },
  { fromUnits: 11, toUnits: 20, price: '4.0000' },
  { fromUnits: 21, toUnits: null, price: '3.5000' },
];

const organisation = (settings: Partial<OpenOrganisation['settings']> = {}): OpenOrganisation => openOrganisation({}, { timezone: 'Europe/London', canCreateAccountingContacts: false, ...settings });

const plan = (overrides: Partial<PlanDefinition> = {}): PlanDefinition => seatsPlan(overrides);

/** A subscription created on `start`, its first period [start, renewal). */
const subscribed = (overrides: Partial<SubscriptionCreatedData> = {}): SubscriptionEvent => ({
  type: 'SubscriptionCreated',
  data: subscriptionCreatedData({
    timezone: 'Europe/London',
    startDate: '2026-03-01',
    currentPeriodStart: '2026-03-01',
    renewalDate: '2026-04-01',
    firstInvoiceId: 'inv_first',
    ...overrides,
  }),
});

const renewalRaised: SubscriptionEvent = {
  type: 'SubscriptionRenewalInvoiceRaised',
  data: { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-04-01' },
};

const change = (request: Partial<ChangeUnits['request']> = {}, more: Partial<ChangeUnits> = {}): ChangeUnits => ({
  type: 'ChangeUnits',
  changeId: 'chg_a',
  now: '2026-03-10T09:00:00.000Z',
  organisation: organisation(),
  plan: plan(),
  invoiceId: 'inv_change',
  creditNoteId: 'cn_change',
  renewalInvoice: { standing: 'draft', kept: 0n },
  request: { units: 8, prorate: false, prorationBehaviour: null, effectiveDate: null, document: null, ...request },
  ...more,
});

/** The subscription the events leave. */
const stateOf = (events: SubscriptionEvent[]) => {
  const state = events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
  if (state.status === 'none') throw new Error('no subscription');
  return state;
};

/** The one event a command decides on the events given. */
const decideOne = (events: SubscriptionEvent[], command: EndSubscription | RestoreSubscription | ChangeUnits) => {
  const [event] = subscriptionDecider.decide(command, stateOf(events));
  if (!event) throw new Error('nothing decided');
  return event;
};

/** A restore on 2026-03-26: a removed renewal invoice is raised again as inv_again (and, after an end of before, the next period's credited lines as inv_next). */
const restore: RestoreSubscription = {
  type: 'RestoreSubscription',
  operationId: 'op_restore',
  organisationId: 'org_1',
  resetGeneration: 0,
  today: '2026-03-26',
  customerStatus: 'active',
  planStatus: 'active',
  reRaisedInvoiceId: 'inv_again',
  nextPeriodInvoiceId: 'inv_next',
};

/** The change event a decision records (for asserting a few fields). */
const decided = (given: SubscriptionEvent[], command: ChangeUnits): SubscriptionUnitsChangedData => {
  const state = given.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
  const [event] = subscriptionDecider.decide(command, state);
  if (event?.type !== 'SubscriptionUnitsChanged') throw new Error('no change');
  return event.data;
};

describe('ChangeUnits: every rule, in the order of the API document’s unit change errors', () => {
  it.each([
    [{ units: 2.5 }, 'units_invalid', 'units'],
    [{ units: -1 }, 'units_invalid', 'units'],
    [{ units: 1_000_000_000 }, 'units_invalid', 'units'],
    [{ units: 1 }, 'units_below_minimum', 'units'],
    [{ units: 5 }, 'units_unchanged', 'units'],
    [{ units: 8, prorate: true }, 'effective_date_required', 'effective_date'],
    [{ units: 8, prorate: true, effectiveDate: '2026-02-28' }, 'effective_date_out_of_period', 'effective_date'],
    [{ units: 8, prorate: true, effectiveDate: '2026-04-01' }, 'effective_date_out_of_period', 'effective_date'],
    [{ units: 8, prorationBehaviour: 'charge_on_renewal' as const }, 'proration_behaviour_not_applicable', 'proration_behaviour'],
    [{ units: 8, document: 'separate' as const }, 'document_not_available', 'document'],
  ])('%j is refused with %s', (request, code, param) => {
    spec([subscribed()]).when(change(request)).thenRefuses(code, param);
  });

  it('takes the larger of the plan’s and the subscription’s own minimum', () => {
    spec([subscribed({ minimumUnits: 4 })]).when(change({ units: 3 })).thenRefuses('units_below_minimum', 'units');
  });

  it('refuses a flat fee or no_base_fee plan (plan_has_no_units) after the units rules', () => {
    const flat = subscribed({ units: 0, pricing: { planType: 'flat_fee', price: '49.0000', freeUnits: 0, tiers: [] } });
    spec([flat]).when(change({ units: 3 }, { plan: plan({ type: 'flat_fee', minimumUnits: 0 }) })).thenRefuses('plan_has_no_units', 'units');
    spec([flat]).when(change({ units: 0 }, { plan: plan({ type: 'flat_fee', minimumUnits: 0 }) })).thenRefuses('units_unchanged', 'units');
  });

  it('refuses units whose renewal value (fee and meter minimums) passes the money limit, at today’s prices or the next period’s CPI prices, after plan_has_no_units', () => {
    // A meter whose minimum of one unit bills 1,000,000,000.0000 a period.
    const meter = { meterId: 'mtr_1', meterCode: 'm', name: 'M', model: 'per_unit' as const, price: '1000000000.0000', includedUnits: 0, tiers: [], minimumUnits: 1, planMinimumUnits: 1 };
    // Today 1,000,000,000.0000 a seat: 999 seats bill 999,000,000,000.0000, 1,000 seats (or 999 and the meter's minimum) pass the most.
    const dear = subscribed({ pricing: { planType: 'per_unit', price: '1000000000.0000', freeUnits: 0, tiers: [] } });
    expect(decided([dear], change({ units: 999 }))).toMatchObject({ units: 999 });
    spec([dear]).when(change({ units: 1000 })).thenRefuses('invalid_parameter', 'units');
    spec([subscribed({ pricing: { planType: 'per_unit', price: '1000000000.0000', freeUnits: 0, tiers: [] }, meters: [meter] })])
      .when(change({ units: 999 }))
      .thenRefuses('invalid_parameter', 'units');
    // A CPI uplift of 10 % for the next period: 909 seats bill 999,900,000,000.0000 there, 910 too many.
    const uplifted: SubscriptionEvent = {
      type: 'SubscriptionCpiUplifted',
      data: { subscriptionId: 'sub_1', periodStart: '2026-04-01', year: 2026, percent: '10.00', price: '1100000000.0000', tiers: [], meters: [] },
    };
    expect(decided([dear, uplifted], change({ units: 909 }))).toMatchObject({ units: 909 });
    spec([dear, uplifted]).when(change({ units: 910 })).thenRefuses('invalid_parameter', 'units');
    // The order of the rules: plan_has_no_units before it.
    const flat = subscribed({ units: 0, pricing: { planType: 'flat_fee', price: '999999999999.9999', freeUnits: 0, tiers: [] } });
    spec([flat]).when(change({ units: 3 }, { plan: plan({ type: 'flat_fee', minimumUnits: 0 }) })).thenRefuses('plan_has_no_units', 'units');
  });

  it('refuses units whose prorated charge, carried to the renewal invoice, would take it past the money limit', () => {
    // 600 seats at 1,000,000,000.0000 bill 600,000,000,000.0000 a period; the 595 added on 10 March, for 22 of 31 days, 422,258,064,516.1290 more.
    const dear = subscribed({ pricing: { planType: 'per_unit', price: '1000000000.0000', freeUnits: 0, tiers: [] } });
    const prorated = { units: 600, prorate: true, effectiveDate: '2026-03-10' };
    expect(decided([dear], change({ ...prorated, prorationBehaviour: 'charge_immediately' }))).toMatchObject({ units: 600, renewalAdjustment: null });
    spec([dear]).when(change({ ...prorated, prorationBehaviour: 'charge_on_renewal' })).thenRefuses('invalid_parameter', 'units');
    expect(decided([dear], change({ ...prorated, units: 400, prorationBehaviour: 'charge_on_renewal' }))).toMatchObject({ units: 400 });
  });

  it('refuses units whose separate invoice, or whose amended renewal invoice, would pass the money limit', () => {
    const dear = subscribed({ pricing: { planType: 'per_unit', price: '1000000000.0000', freeUnits: 0, tiers: [] } });
    // Separate: the next period's 994 more seats (994,000,000,000.0000) fit alone; with this period's 22 of 31 days of them too, they do not.
    expect(decided([dear, renewalRaised], change({ units: 999, document: 'separate' }))).toMatchObject({ units: 999, document: 'separate' });
    spec([dear, renewalRaised]).when(change({ units: 999, document: 'separate', prorate: true, effectiveDate: '2026-03-10' })).thenRefuses('invalid_parameter', 'units');
    // Amend: 600 seats fit; beside the 500,000,000,000.0000 of lines the amendment keeps, they do not.
    expect(decided([dear, renewalRaised], change({ units: 600, document: 'amend' }))).toMatchObject({ units: 600, document: 'amend' });
    spec([dear, renewalRaised]).when(change({ units: 600, document: 'amend' }, { renewalInvoice: { standing: 'draft', kept: 5_000_000_000_000_000n } })).thenRefuses('invalid_parameter', 'units');
  });

  it('requires proration for a decrease once the renewal invoice exists at the old units (before it, a decrease takes effect at renewal)', () => {
    spec([subscribed(), renewalRaised]).when(change({ units: 3 })).thenRefuses('proration_required', 'prorate');
    expect(decided([subscribed()], change({ units: 3 }))).toMatchObject({ units: 3, periodUnits: 5, proration: null, creditNoteId: null });
  });

  it('refuses in Setup Mode, then an ended or completed subscription', () => {
    spec([subscribed()]).when(change({}, { organisation: organisation({ setupMode: true }) })).thenRefuses('setup_mode_on');
    const ended: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId: 'sub_1', operationId: 'op_end', endedAt: '2026-03-05T00:00:00.000Z', endDate: '2026-03-05', invoiceUsageNow: false, removals: [], nextPeriodCredits: [] },
    };
    spec([subscribed(), ended]).when(change()).thenRefuses('subscription_not_changeable');
    // The document's order: a units error comes before the state of the subscription.
    spec([subscribed(), ended]).when(change({ units: -1 })).thenRefuses('units_invalid');
  });

  it('refuses amend when the renewal invoice can no longer be changed; accepts separate', () => {
    spec([subscribed(), renewalRaised])
      .when(change({ prorate: true, effectiveDate: '2026-03-10', document: 'amend' }, { renewalInvoice: { standing: 'approved', kept: 0n } }))
      .thenRefuses('document_not_available', 'document');
    expect(decided([subscribed(), renewalRaised], change({ prorate: true, effectiveDate: '2026-03-10', document: 'separate' }))).toMatchObject({
      document: 'separate',
      invoiceId: 'inv_change',
    });
  });

  it('refuses amend for a renewal invoice in an accounting organisation the organisation moved away from, saying why; its amend default falls back to separate', () => {
    const elsewhere = { renewalInvoice: { standing: 'elsewhere', kept: 0n } } as const;
    spec([subscribed(), renewalRaised]).when(change({ units: 18, document: 'amend' }, elsewhere)).thenRefuses('document_not_available', 'document');
    const state = [subscribed(), renewalRaised].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(() => subscriptionDecider.decide(change({ units: 18, document: 'amend' }, elsewhere), state)).toThrow(
      'The renewal invoice is in an accounting organisation this organisation no longer uses, where it cannot be changed. Send document: separate.',
    );
    const defaulted = change({ units: 18, prorate: true, effectiveDate: '2026-03-10', prorationBehaviour: 'charge_on_renewal' }, { ...elsewhere, organisation: organisation({ unitChangeDocument: 'amend' }) });
    expect(decided([subscribed(), renewalRaised], defaulted)).toMatchObject({ document: 'separate', invoiceId: 'inv_change', renewalAdjustment: null });
    // Never pushed: amended here alone.
    expect(decided([subscribed(), renewalRaised], change({ units: 18, document: 'amend' }, { renewalInvoice: { standing: 'not_pushed', kept: 0n } }))).toMatchObject({ document: 'amend' });
  });

  it('lets the organisation’s unit_change_document decide when document is omitted; amend defers the charge to the renewal invoice', () => {
    const amend = decided([subscribed(), renewalRaised], change({ prorate: true, effectiveDate: '2026-03-10' }, { organisation: organisation({ unitChangeDocument: 'amend' }) }));
    expect(amend).toMatchObject({ document: 'amend', invoiceId: null, renewalAdjustment: expect.any(String) });
    expect(decided([subscribed(), renewalRaised], change({ prorate: true, effectiveDate: '2026-03-10' }))).toMatchObject({ document: 'separate' });
  });

  it('refuses another organisation’s subscription as not found, and decides nothing for a change already made', () => {
    spec([]).when(change()).thenRefuses('subscription_not_found', 'id');
    spec([subscribed({ organisationId: 'org_2' })]).when(change()).thenRefuses('subscription_not_found', 'id');
    const first = decided([subscribed()], change());
    spec([subscribed(), { type: 'SubscriptionUnitsChanged', data: first }]).when(change()).then([]);
  });

  it('refuses a subscription a sandbox reset removed: made in another generation than the organisation’s', () => {
    const sandbox = openOrganisation({ livemode: false, resetGeneration: 1 }, { timezone: 'Europe/London' });
    // Made before the first reset (no generation recorded), asked for after it.
    spec([subscribed()]).when(change({}, { organisation: sandbox })).thenRefuses('subscription_not_found', 'id');
    spec([subscribed({ resetGeneration: 1 })]).when(change({}, { organisation: openOrganisation({ livemode: false, resetGeneration: 2 }) })).thenRefuses('subscription_not_found', 'id');
    expect(decided([subscribed({ resetGeneration: 1 })], change({}, { organisation: sandbox }))).toMatchObject({ units: expect.any(Number) });
  });

  it('records a change without proration to take effect at renewal, with no document', () => {
    spec([subscribed()])
      .when(change({ units: 8 }))
      .then([
        {
          type: 'SubscriptionUnitsChanged',
          data: {
            subscriptionId: 'sub_1',
            changeId: 'chg_a',
            changedAt: '2026-03-10T09:00:00.000Z',
            previousUnits: 5,
            units: 8,
            prorate: false,
            prorationBehaviour: null,
            effectiveDate: null,
            document: null,
            periodStart: '2026-03-01',
            renewalDate: '2026-04-01',
            periodUnits: 5,
            proration: null,
            invoiceId: null,
            creditNoteId: null,
            creditedInvoiceId: null,
            renewalAdjustment: null,
            nextPeriod: null,
          },
        },
      ]);
  });

  it('keeps a charge_on_renewal proration for the renewal invoice; a credit is a credit note whatever the behaviour', () => {
    // 5 → 8 from 2026-03-22: 10 of 31 days. 30 × 10 / 31 = 9.67741… → 9.6774
    expect(decided([subscribed()], change({ prorate: true, prorationBehaviour: 'charge_on_renewal', effectiveDate: '2026-03-22' }))).toMatchObject({
      invoiceId: null,
      renewalAdjustment: '9.6774',
    });
    expect(decided([subscribed()], change({ units: 3, prorate: true, prorationBehaviour: 'charge_on_renewal', effectiveDate: '2026-03-22' }))).toMatchObject({
      creditNoteId: 'cn_change',
      // It reduces the latest invoice raised before the change, here the first.
      creditedInvoiceId: 'inv_first',
      renewalAdjustment: null,
      proration: { amount: '-6.4516' },
    });
  });
});

describe('proration by days: worked examples', () => {
  const prorated = (created: Partial<SubscriptionCreatedData>, units: number, effectiveDate: string, minimum = 0) =>
    decided([subscribed(created)], change({ units, prorate: true, effectiveDate }, { plan: plan({ minimumUnits: minimum }) })).proration;

  it('a 31-day month (March): per_unit 5 → 8 from the 22nd, 10 days left', () => {
    // (8 − 5) × 10.0000 = 30.0000 a period; 30 × 10 / 31 = 9.677419… → 9.6774
    expect(prorated({}, 8, '2026-03-22')).toEqual({ daysLeft: 10, daysInPeriod: 31, numerator: '3000000', amount: '9.6774' });
  });

  it('a 30-day month (April): tiered 8 → 15 from the 11th, 20 days left', () => {
    // tiered: 8 × 5 = 40.0000; 10 × 5 + 5 × 4 = 70.0000; 30 × 20 / 30 = 20.0000
    const created = { startDate: '2026-04-01', currentPeriodStart: '2026-04-01', renewalDate: '2026-05-01', units: 8, pricing: { planType: 'tiered' as const, price: '0.0000', freeUnits: 0, tiers } };
    expect(prorated(created, 15, '2026-04-11')).toMatchObject({ daysLeft: 20, daysInPeriod: 30, amount: '20.0000' });
  });

  it('a leap February: volume 10 → 11 (into the cheaper band) from the 20th credits, although units went up', () => {
    // volume: 10 × 5 = 50.0000; 11 × 4 = 44.0000; −6 × 10 / 29 = −2.068965… → −2.0690
    const created = { startDate: '2028-02-01', currentPeriodStart: '2028-02-01', renewalDate: '2028-03-01', units: 10, pricing: { planType: 'volume' as const, price: '0.0000', freeUnits: 0, tiers } };
    const proration = prorated(created, 11, '2028-02-20');
    expect(proration).toMatchObject({ daysLeft: 10, daysInPeriod: 29, amount: '-2.0690' });
    expect(decided([subscribed(created)], change({ units: 11, prorate: true, effectiveDate: '2028-02-20' }))).toMatchObject({ creditNoteId: 'cn_change', invoiceId: null });
  });

  it('a yearly plan: stairstep 9 → 12 (5.0000 → 4.0000 for the quantity) from 1 July, 243 of 365 days left', () => {
    // stairstep: 5.0000 → 4.0000 for the whole quantity. July to February: 31+31+30+31+30+31+31+28 = 243 days.
    // −1 × 243 / 365 = −0.665753… → −0.6658
    const created = {
      interval: { unit: 'year' as const, count: 1 },
      startDate: '2026-03-01',
      currentPeriodStart: '2026-03-01',
      renewalDate: '2027-03-01',
      units: 9,
      pricing: { planType: 'stairstep' as const, price: '0.0000', freeUnits: 0, tiers },
    };
    expect(prorated(created, 12, '2026-07-01')).toMatchObject({ daysLeft: 243, daysInPeriod: 365, amount: '-0.6658' });
  });

  it('free units: per_unit with 2 free, 2 → 4 bills only the units above the free ones', () => {
    // (4 − 2) × 10 − max(2 − 2, 0) × 10 = 20.0000 for the whole period (31 of 31 days)
    expect(prorated({ units: 2, pricing: { planType: 'per_unit', price: '10.0000', freeUnits: 2, tiers: [] } }, 4, '2026-03-01')).toMatchObject({ amount: '20.0000' });
  });
});

/** One pricing of each plan type with units, for the properties. */
const plans = [
  { planType: 'per_unit' as const, price: '7.3300', freeUnits: 1, tiers: [] },
  { planType: 'tiered' as const, price: '0.0000', freeUnits: 0, tiers },
  { planType: 'volume' as const, price: '0.0000', freeUnits: 0, tiers },
  { planType: 'stairstep' as const, price: '0.0000', freeUnits: 0, tiers },
];

describe('proration property: consecutive changes never over-credit', () => {

  it('the prorated charges less credits of any sequence inside one period equal what each units level cost for the days it applied', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...plans),
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.record({ units: fc.integer({ min: 0, max: 40 }), day: fc.integer({ min: 0, max: 30 }) }), { minLength: 1, maxLength: 8 }),
        (pricing, initial, steps) => {
          const created = subscribed({ units: initial, pricing });
          const pricingOf = { type: pricing.planType, price: pricing.price, freeUnits: pricing.freeUnits, tiers: pricing.tiers };
          const sorted = [...steps].sort((a, b) => a.day - b.day);
          const events: SubscriptionEvent[] = [created];
          let charged = 0n;
          let current = initial;
          const applied: { units: number; from: number }[] = [{ units: initial, from: 0 }];
          sorted.forEach((step, i) => {
            if (step.units === current) return;
            const data = decided(
              events,
              change({ units: step.units, prorate: true, effectiveDate: addDays('2026-03-01', step.day) }, { changeId: `c${i}`, plan: plan({ minimumUnits: 0 }) }),
            );
            events.push({ type: 'SubscriptionUnitsChanged', data });
            charged += parseMoney(data.proration!.amount);
            current = step.units;
            applied.push({ units: step.units, from: step.day });
          });
          // What the units cost for the days each applied, less the period already billed at the start.
          const days = daysBetween('2026-03-01', '2026-04-01');
          const exact = applied.reduce((total, level, i) => {
            const until = applied[i + 1]?.from ?? days;
            return total + planAmount(pricingOf, level.units) * BigInt(until - level.from);
          }, 0n);
          expect(charged).toBe(divideRounded(exact - planAmount(pricingOf, initial) * BigInt(days), BigInt(days)));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('EndSubscription', () => {
  const facts = (invoiceId: string, status: InvoiceFacts['status'], more: Partial<InvoiceFacts> = {}): InvoiceFacts => ({ invoiceId, status, sent: false, settled: false, ...more });
  const end = (request: Partial<EndSubscription['request']> = {}, more: Partial<EndSubscription> = {}): EndSubscription => ({
    type: 'EndSubscription',
    operationId: 'op_end',
    now: '2026-03-10T09:00:00.000Z',
    today: '2026-03-10',
    organisation: organisation(),
    invoices: [],
    nextPeriodCreditNoteIds: {},
    carriedChargesInvoiceId: 'inv_carried',
    renewalInvoiceCarriesCharges: false,
    request: { when: 'now', deleteUnsentInvoices: false, voidApprovedInvoices: false, invoiceUsageNow: false, ...request },
    ...more,
  });

  it.each(['deleteUnsentInvoices', 'voidApprovedInvoices', 'invoiceUsageNow'] as const)('refuses %s with period_end (422 naming the field)', (option) => {
    const param = { deleteUnsentInvoices: 'delete_unsent_invoices', voidApprovedInvoices: 'void_approved_invoices', invoiceUsageNow: 'invoice_usage_now' }[option];
    spec([subscribed()]).when(end({ when: 'period_end', [option]: true })).thenRefuses('invalid_parameter', param);
  });

  it('at period end: cancel_at_period_end with the renewal date as end date; a second one is invalid_state', () => {
    const scheduled: SubscriptionEvent = { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'op_end', endDate: '2026-04-01', removals: [], nextPeriodCredits: [], carriedCharges: null } };
    spec([subscribed()]).when(end({ when: 'period_end' })).then([scheduled]);
    spec([subscribed(), scheduled]).when(end({ when: 'period_end' }, { operationId: 'op_again' })).thenRefuses('invalid_state');
  });

  it('now: ended today, recording invoice_usage_now; ending again is invalid_state; a retry of the same end decides nothing', () => {
    const ended: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId: 'sub_1', operationId: 'op_end', endedAt: '2026-03-10T09:00:00.000Z', endDate: '2026-03-10', invoiceUsageNow: true, removals: [], nextPeriodCredits: [], carriedCharges: null },
    };
    spec([subscribed()]).when(end({ invoiceUsageNow: true })).then([ended]);
    spec([subscribed(), ended]).when(end({}, { operationId: 'op_2' })).thenRefuses('invalid_state');
    spec([subscribed(), ended]).when(end({ invoiceUsageNow: true })).then([]);
  });

  it('removes the never-sent and the approved unpaid invoices when asked, one entry each', () => {
    const invoices = [facts('inv_1', 'draft'), facts('inv_2', 'draft', { sent: true }), facts('inv_3', 'approved'), facts('inv_4', 'approved', { settled: true }), facts('inv_5', 'not_in_external'), facts('inv_6', 'deleted')];
    const [event] = subscriptionDecider.decide(end({ deleteUnsentInvoices: true, voidApprovedInvoices: true }, { invoices }), [subscribed()].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()));
    expect(event?.data).toMatchObject({
      removals: [
        { invoiceId: 'inv_1', action: 'delete' },
        { invoiceId: 'inv_3', action: 'void' },
        { invoiceId: 'inv_5', action: 'delete' },
      ],
    });
  });

  it('removes the renewal invoice (voided if approved, else deleted) now or at period end; refuses while it has a payment or credit', () => {
    const state = [subscribed(), renewalRaised].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(subscriptionDecider.decide(end({ when: 'period_end' }, { invoices: [facts('inv_renewal', 'approved')] }), state)[0]?.data).toMatchObject({
      removals: [{ invoiceId: 'inv_renewal', action: 'void' }],
    });
    expect(subscriptionDecider.decide(end({}, { invoices: [facts('inv_renewal', 'draft')] }), state)[0]?.data).toMatchObject({
      removals: [{ invoiceId: 'inv_renewal', action: 'delete' }],
    });
    spec([subscribed(), renewalRaised]).when(end({}, { invoices: [facts('inv_renewal', 'approved', { settled: true })] })).thenRefuses('invalid_state');
  });

  it('refuses an end whose renewal invoice was sent before it was approved (neither deleted nor voided by the accounting system), asking it nothing', () => {
    for (const status of ['draft', 'awaiting_approval'] as const) {
      for (const when of ['now', 'period_end'] as const) {
        spec([subscribed(), renewalRaised]).when(end({ when }, { invoices: [facts('inv_renewal', status, { sent: true })] })).thenRefuses('invalid_state');
      }
    }
    // Sent once approved, it is voided.
    const state = [subscribed(), renewalRaised].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(subscriptionDecider.decide(end({}, { invoices: [facts('inv_renewal', 'approved', { sent: true })] }), state)[0]?.data).toMatchObject({
      removals: [{ invoiceId: 'inv_renewal', action: 'void' }],
    });
  });

  it('refuses ending now with invoice removal in Setup Mode; ending without removal is accepted', () => {
    const setup = organisation({ setupMode: true });
    spec([subscribed()]).when(end({ deleteUnsentInvoices: true }, { organisation: setup })).thenRefuses('invalid_state');
    spec([subscribed()]).when(end({ voidApprovedInvoices: true }, { organisation: setup })).thenRefuses('invalid_state');
    expect(subscriptionDecider.decide(end({}, { organisation: setup }), [subscribed()].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState()))).toHaveLength(1);
  });
});

describe('RestoreSubscription', () => {
  const endedNow: SubscriptionEvent = {
    type: 'SubscriptionEnded',
    data: { subscriptionId: 'sub_1', operationId: 'op_end', endedAt: '2026-03-10T09:00:00.000Z', endDate: '2026-03-10', invoiceUsageNow: false, removals: [], nextPeriodCredits: [] },
  };
  const restore = (more: Partial<RestoreSubscription> = {}): RestoreSubscription => ({
    type: 'RestoreSubscription',
    operationId: 'op_restore',
    organisationId: 'org_1',
    resetGeneration: 0,
    today: '2026-03-20',
    customerStatus: 'active',
    planStatus: 'active',
    reRaisedInvoiceId: 'inv_again',
    nextPeriodInvoiceId: 'inv_next',
    ...more,
  });

  it('returns an ended subscription to active before its renewal date (plan active or legacy)', () => {
    const restored: SubscriptionEvent = {
      type: 'SubscriptionRestored',
      data: { subscriptionId: 'sub_1', operationId: 'op_restore', from: 'ended', status: 'active', renewalInvoiceId: null, replacesInvoiceId: null, nextPeriodInvoice: null },
    };
    spec([subscribed(), endedNow]).when(restore()).then([restored]);
    spec([subscribed(), endedNow]).when(restore({ planStatus: 'legacy' })).then([restored]);
  });

  it.each([
    [{ today: '2026-04-01' }, 'the renewal date has passed'],
    [{ customerStatus: 'inactive' as const }, 'the customer is inactive'],
    [{ planStatus: 'inactive' as const }, 'the plan is inactive'],
    [{ planStatus: 'draft' as const }, 'the plan is a draft'],
  ])('refuses %j (%s) with invalid_state', (more: Partial<RestoreSubscription>, _why: string) => {
    spec([subscribed(), endedNow]).when(restore(more)).thenRefuses('invalid_state');
  });

  it('restores one set to end at period end; refuses one that is neither ended nor set to end', () => {
    const scheduled: SubscriptionEvent = { type: 'SubscriptionEndScheduled', data: { subscriptionId: 'sub_1', operationId: 'op_end', endDate: '2026-04-01', removals: [], nextPeriodCredits: [], carriedCharges: null } };
    spec([subscribed(), scheduled])
      .when(restore())
      .then([{ type: 'SubscriptionRestored', data: { subscriptionId: 'sub_1', operationId: 'op_restore', from: 'cancel_at_period_end', status: 'active', renewalInvoiceId: null, replacesInvoiceId: null, nextPeriodInvoice: null } }]);
    spec([subscribed()]).when(restore()).thenRefuses('invalid_state');
  });

  it('a pending subscription returns to pending before its start date', () => {
    spec([subscribed({ status: 'pending', startDate: '2026-04-01', currentPeriodStart: '2026-04-01', renewalDate: '2026-05-01' }), endedNow])
      .when(restore())
      .then([{ type: 'SubscriptionRestored', data: { subscriptionId: 'sub_1', operationId: 'op_restore', from: 'ended', status: 'pending', renewalInvoiceId: null, replacesInvoiceId: null, nextPeriodInvoice: null } }]);
  });

  it('raises again a renewal invoice that ending removed', () => {
    const endedRemoving: SubscriptionEvent = { ...endedNow, data: { ...endedNow.data, removals: [{ invoiceId: 'inv_renewal', action: 'delete' }] } };
    spec([subscribed(), renewalRaised, endedRemoving])
      .when(restore())
      .then([{ type: 'SubscriptionRestored', data: { subscriptionId: 'sub_1', operationId: 'op_restore', from: 'ended', status: 'active', renewalInvoiceId: 'inv_again', replacesInvoiceId: 'inv_renewal', nextPeriodInvoice: null } }]);
  });
});

describe('document: separate once the renewal invoice exists: the next period’s difference is billed too', () => {
  // per_unit 10.0000 a seat, no free seats, monthly: the period 2026-03-01 – 2026-04-01 (31 days).
  // The renewal invoice for 2026-04-01 – 2026-05-01 was raised at 5 seats: 50.0000.
  const raisedAt5: SubscriptionEvent = {
    type: 'SubscriptionRenewalInvoiceRaised',
    data: { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-04-01', periodEnd: '2026-05-01', units: 5, adjustments: [] },
  };
  const separate = (request: Partial<ChangeUnits['request']>, changeId = 'chg_a') =>
    change({ document: 'separate', ...request }, { changeId, invoiceId: `inv_${changeId}`, creditNoteId: `cn_${changeId}` });
  const recorded = (data: SubscriptionUnitsChangedData): SubscriptionEvent => ({ type: 'SubscriptionUnitsChanged', data });
  const lineIds = (i: number) => `line_${i}`;
  const documentsOf = (created: SubscriptionEvent, data: SubscriptionUnitsChangedData) => {
    if (created.type !== 'SubscriptionCreated') throw new Error('not a creation');
    const input = { subscription: created.data, change: data, lineIds, paymentTermsDays: 14 };
    return {
      invoice: data.invoiceId ? unitChangeInvoice(input) : null,
      creditNote: data.creditNoteId ? unitChangeCreditNote({ ...input, reduces: data.creditedInvoiceId }) : null,
    };
  };
  const linesOf = (lines: readonly { amount: string; effectiveDate: string | null }[]) => lines.map((l) => [l.amount, l.effectiveDate]);

  it('an increase 5 → 8 from 22 Mar: one invoice with this period’s prorated part and the next period’s whole difference', () => {
    // This period: (80 − 50) × 10 / 31 = 9.677419… → 9.6774, from 22 Mar (GMT midnight).
    // Next period: 80.0000 − 50.0000 = 30.0000, from 1 Apr (BST from 29 Mar: 23:00 UTC the day before).
    const data = decided([subscribed(), raisedAt5], separate({ units: 8, prorate: true, effectiveDate: '2026-03-22' }));
    expect(data).toMatchObject({
      invoiceId: 'inv_chg_a',
      creditNoteId: null,
      renewalAdjustment: null,
      proration: { amount: '9.6774' },
      nextPeriod: { start: '2026-04-01', end: '2026-05-01', billedUnits: 5, amount: '30.0000' },
    });
    const { invoice } = documentsOf(subscribed(), data);
    expect(invoice!.lines.map((l) => [l.revenueType, l.units, l.amount, l.effectiveDate, l.description])).toEqual([
      ['expansion', 8, '9.6774', '2026-03-22T00:00:00.000Z', '5 → 8 units from 2026-03-22 to 2026-04-01 (10/31 days)'],
      ['expansion', 8, '30.0000', '2026-03-31T23:00:00.000Z', '5 → 8 units for the period 2026-04-01 to 2026-05-01'],
    ]);
    expect(invoice!.lines.map((l) => l.lineId)).toEqual(['line_0', 'line_1']);
  });

  it('applies the subscription’s discount to both lines', () => {
    // 10 % off: 9.6774 − 0.9677 = 8.7097; 30.0000 − 3.0000 = 27.0000.
    const created = subscribed({ discountPercent: '10.00' });
    const data = decided([created, raisedAt5], separate({ units: 8, prorate: true, effectiveDate: '2026-03-22' }));
    expect(documentsOf(created, data).invoice!.lines.map((l) => [l.amount, l.discountAmount, l.chargeAmount])).toEqual([
      ['9.6774', '0.9677', '8.7097'],
      ['30.0000', '3.0000', '27.0000'],
    ]);
  });

  it('a decrease 5 → 3 from 22 Mar: one credit note with both parts, reducing the renewal invoice', () => {
    // This period: (30 − 50) × 10 / 31 = −6.451612… → −6.4516. Next period: 30.0000 − 50.0000 = −20.0000. Credit 26.4516.
    const data = decided([subscribed(), raisedAt5], separate({ units: 3, prorate: true, effectiveDate: '2026-03-22' }));
    expect(data).toMatchObject({ invoiceId: null, creditNoteId: 'cn_chg_a', creditedInvoiceId: 'inv_renewal', nextPeriod: { billedUnits: 5, amount: '-20.0000' } });
    const { creditNote } = documentsOf(subscribed(), data);
    expect(linesOf(creditNote!.lines)).toEqual([
      ['6.4516', '2026-03-22T00:00:00.000Z'],
      ['20.0000', '2026-03-31T23:00:00.000Z'],
    ]);
    expect(creditNote).toMatchObject({ invoiceId: 'inv_renewal', subtotal: '26.4516' });
  });

  it('two consecutive changes bill each difference once: renewal 50 + 30 + 20 = 100.0000, the price of the final 10 seats', () => {
    // 5 → 8 from 10 Mar (22 days left): next period 30.0000. Then 8 → 10 from 22 Mar: next period 100 − 80 = 20.0000, not 50.
    const first = decided([subscribed(), raisedAt5], separate({ units: 8, prorate: true, effectiveDate: '2026-03-10' }));
    const second = decided([subscribed(), raisedAt5, recorded(first)], separate({ units: 10, prorate: true, effectiveDate: '2026-03-22' }, 'chg_b'));
    expect(first.nextPeriod).toMatchObject({ billedUnits: 5, amount: '30.0000' });
    expect(second.nextPeriod).toMatchObject({ billedUnits: 8, amount: '20.0000' });
    // This period: 30 × 22 / 31 = 21.2903 then 20 × 10 / 31 = 6.4516 on top of the first.
    expect(second.proration).toMatchObject({ amount: '6.4516' });
    const nextBilled = [first, second].reduce((sum, data) => sum + parseMoney(data.nextPeriod!.amount), parseMoney('50.0000'));
    expect(nextBilled).toBe(planAmount({ type: 'per_unit', price: '10.0000', freeUnits: 0, tiers: [] }, 10));
    // Back down to 5 bills the whole difference back: −50.0000, leaving the next period at its 50.0000.
    const third = decided([subscribed(), raisedAt5, recorded(first), recorded(second)], separate({ units: 5, prorate: true, effectiveDate: '2026-03-25' }, 'chg_c'));
    expect(third.nextPeriod).toMatchObject({ billedUnits: 10, amount: '-50.0000' });
  });

  it('an amend then a separate change compares against the amended units; the roll-over forgets them', () => {
    const amend = decided([subscribed(), raisedAt5], change({ units: 8, document: 'amend' }));
    const next = decided([subscribed(), raisedAt5, recorded(amend)], separate({ units: 10 }, 'chg_b'));
    expect(next.nextPeriod).toMatchObject({ billedUnits: 8, amount: '20.0000' });
    const renewed: SubscriptionEvent = { type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1', periodStart: '2026-04-01', renewalDate: '2026-05-01' } };
    const state = [subscribed(), raisedAt5, recorded(amend), recorded(next), renewed].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(state.status !== 'none' && state.life).toMatchObject({ units: 10, periodUnits: 10, nextPeriodUnits: null });
  });

  it('refuses amend once a separate document billed part of the next period; the organisation’s amend default falls back to separate', () => {
    // Amending the renewal line to 10 seats (100.0000) after a separate 30.0000 for seats 6–8 would bill those seats twice.
    const first = recorded(decided([subscribed(), raisedAt5], separate({ units: 8 })));
    spec([subscribed(), raisedAt5, first]).when(change({ units: 10, document: 'amend' }, { changeId: 'chg_b' })).thenRefuses('document_not_available', 'document');
    const byDefault = decided([subscribed(), raisedAt5, first], change({ units: 10 }, { changeId: 'chg_b', organisation: organisation({ unitChangeDocument: 'amend' }) }));
    expect(byDefault).toMatchObject({ document: 'separate', nextPeriod: { billedUnits: 8, amount: '20.0000' } });
  });

  it('a volume plan crossing into the cheaper band (10 → 11) credits both parts although units went up', () => {
    // volume: 10 × 5 = 50.0000; 11 × 4 = 44.0000. This period −6 × 10 / 31 = −1.935483… → −1.9355; next period −6.0000.
    const created = subscribed({ units: 10, pricing: { planType: 'volume', price: '0.0000', freeUnits: 0, tiers } });
    const raisedAt10: SubscriptionEvent = { ...raisedAt5, data: { ...raisedAt5.data, units: 10 } };
    const data = decided([created, raisedAt10], separate({ units: 11, prorate: true, effectiveDate: '2026-03-22' }));
    expect(data).toMatchObject({ invoiceId: null, creditNoteId: 'cn_chg_a', nextPeriod: { billedUnits: 10, amount: '-6.0000' } });
    expect(linesOf(documentsOf(created, data).creditNote!.lines)).toEqual([
      ['1.9355', '2026-03-22T00:00:00.000Z'],
      ['6.0000', '2026-03-31T23:00:00.000Z'],
    ]);
  });

  it('bills the next period at the prices the renewal invoice used: a CPI uplift of 5 % makes 3 seats 31.5000', () => {
    const uplift: SubscriptionEvent = {
      type: 'SubscriptionCpiUplifted',
      data: { subscriptionId: 'sub_1', periodStart: '2026-04-01', year: 2026, percent: '5.00', price: '10.5000', tiers: [], meters: [] },
    };
    // This period at today's 10.0000: 9.6774; the next at 10.5000: 3 × 10.5 = 31.5000.
    const data = decided([subscribed(), uplift, raisedAt5], separate({ units: 8, prorate: true, effectiveDate: '2026-03-22' }));
    expect(data).toMatchObject({ proration: { amount: '9.6774' }, nextPeriod: { amount: '31.5000' } });
  });

  it('without proration: the current period is untouched, and a separate invoice bills the next period’s difference only', () => {
    // 5 → 8 at renewal: nothing for this period; 30.0000 for 2026-04-01 – 2026-05-01.
    const data = decided([subscribed(), raisedAt5], separate({ units: 8 }));
    expect(data).toMatchObject({ periodUnits: 5, proration: null, invoiceId: 'inv_chg_a', creditNoteId: null, nextPeriod: { amount: '30.0000' } });
    expect(linesOf(documentsOf(subscribed(), data).invoice!.lines)).toEqual([['30.0000', '2026-03-31T23:00:00.000Z']]);
  });

  it('charge_on_renewal once the renewal invoice exists: the prorated part rides on the separate invoice, and on no renewal invoice', () => {
    // The renewal invoice is out and not amended: 9.6774 and 30.0000 now, nothing kept for a renewal invoice.
    const data = decided([subscribed(), raisedAt5], separate({ units: 8, prorate: true, prorationBehaviour: 'charge_on_renewal', effectiveDate: '2026-03-22' }));
    expect(data).toMatchObject({ invoiceId: 'inv_chg_a', renewalAdjustment: null });
    expect(linesOf(documentsOf(subscribed(), data).invoice!.lines).map(([amount]) => amount)).toEqual(['9.6774', '30.0000']);
    const renewed: SubscriptionEvent = { type: 'SubscriptionRenewed', data: { subscriptionId: 'sub_1', periodStart: '2026-04-01', renewalDate: '2026-05-01' } };
    const state = [subscribed(), raisedAt5, recorded(data), renewed].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(state.status !== 'none' && state.life.renewalAdjustments).toEqual([]);
  });
});

describe('ending after separate increases: the next period’s lines are credited, and a restore bills them again', () => {
  // The period 2026-03-01 – 2026-04-01; the renewal invoice for 2026-04-01 – 2026-05-01 raised at 5 seats (50.0000).
  const raisedAt5: SubscriptionEvent = {
    type: 'SubscriptionRenewalInvoiceRaised',
    data: { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-04-01', periodEnd: '2026-05-01', units: 5, adjustments: [] },
  };
  const increase = (given: SubscriptionEvent[], units: number, changeId: string): SubscriptionEvent => {
    const command = change({ units, document: 'separate', prorate: true, effectiveDate: '2026-03-22' }, { changeId, invoiceId: `inv_${changeId}`, creditNoteId: `cn_${changeId}` });
    return { type: 'SubscriptionUnitsChanged', data: decided(given, command) };
  };
  // 5 → 8 from 22 Mar: 9.6774 for this period and 30.0000 for the next, on inv_up.
  const up = increase([subscribed(), raisedAt5], 8, 'up');
  const end = (request: Partial<EndSubscription['request']> = {}, more: Partial<EndSubscription> = {}): EndSubscription => ({
    type: 'EndSubscription',
    operationId: 'op_end',
    now: '2026-03-25T09:00:00.000Z',
    today: '2026-03-25',
    organisation: organisation(),
    invoices: [{ invoiceId: 'inv_renewal', status: 'draft', sent: false, settled: false }],
    nextPeriodCreditNoteIds: { inv_up: 'cn_end_up', inv_more: 'cn_end_more', inv_next: 'cn_end_next' },
    carriedChargesInvoiceId: 'inv_carried',
    renewalInvoiceCarriesCharges: false,
    request: { when: 'now', deleteUnsentInvoices: false, voidApprovedInvoices: false, invoiceUsageNow: false, ...request },
    ...more,
  });
  const invoiceOf = (created: SubscriptionEvent, event: SubscriptionEvent) => {
    if (created.type !== 'SubscriptionCreated' || event.type !== 'SubscriptionUnitsChanged') throw new Error('not a change');
    return unitChangeInvoice({ subscription: created.data, change: event.data, lineIds: (i) => `line_${i}`, paymentTermsDays: 14 });
  };
  const subscription = (created: SubscriptionEvent) => {
    if (created.type !== 'SubscriptionCreated') throw new Error('not a creation');
    return created.data;
  };

  it('ending now removes the renewal invoice and credits the separate invoice’s next-period line only: 30.0000, allocated to it', () => {
    const ended = decideOne([subscribed(), raisedAt5, up], end());
    expect(ended.data).toMatchObject({ removals: [{ invoiceId: 'inv_renewal', action: 'delete' }], nextPeriodCredits: [{ invoiceId: 'inv_up', creditNoteId: 'cn_end_up' }] });
    const note = nextPeriodCreditNote({ subscription: subscription(subscribed()), invoice: invoiceOf(subscribed(), up), creditNoteId: 'cn_end_up', lineIds: (i) => `cl_${i}`, now: '2026-03-25T09:00:00.000Z' });
    // The 9.6774 for 22 Mar – 1 Apr stays billed: ending does not credit the current period.
    expect(note).toMatchObject({ invoiceId: 'inv_up', subtotal: '30.0000', creditNoteDate: '2026-03-25T09:00:00.000Z' });
    expect(note.lines).toEqual([
      { lineId: 'cl_0', name: 'Seats', description: 'Subscription ended: 5 → 8 units for the period 2026-04-01 to 2026-05-01', amount: '30.0000', effectiveDate: '2026-03-31T23:00:00.000Z' },
    ]);
  });

  it('credits net of the discount the line was billed with: 10 % off 30.0000 is 27.0000', () => {
    const created = subscribed({ discountPercent: '10.00' });
    const discounted = increase([created, raisedAt5], 8, 'up');
    const note = nextPeriodCreditNote({ subscription: subscription(created), invoice: invoiceOf(created, discounted), creditNoteId: 'cn_end_up', lineIds: (i) => `cl_${i}`, now: '2026-03-25T09:00:00.000Z' });
    expect(note.subtotal).toBe('27.0000');
  });

  it('at period end too, each separate invoice by a credit note of its own (two increases: 30.0000 and 20.0000)', () => {
    const more = increase([subscribed(), raisedAt5, up], 10, 'more');
    expect(decideOne([subscribed(), raisedAt5, up, more], end({ when: 'period_end' })).data).toMatchObject({
      nextPeriodCredits: [
        { invoiceId: 'inv_up', creditNoteId: 'cn_end_up' },
        { invoiceId: 'inv_more', creditNoteId: 'cn_end_more' },
      ],
    });
  });

  it('credits nothing of an invoice the end removes (void_approved_invoices), nor before the renewal invoice exists', () => {
    const invoices: InvoiceFacts[] = [
      { invoiceId: 'inv_renewal', status: 'approved', sent: false, settled: false },
      { invoiceId: 'inv_up', status: 'approved', sent: true, settled: false },
    ];
    expect(decideOne([subscribed(), raisedAt5, up], end({ voidApprovedInvoices: true }, { invoices })).data).toMatchObject({
      removals: [{ invoiceId: 'inv_renewal', action: 'void' }, { invoiceId: 'inv_up', action: 'void' }],
      nextPeriodCredits: [],
    });
    expect(decideOne([subscribed()], end()).data).toMatchObject({ removals: [], nextPeriodCredits: [] });
  });

  it('refuses to end while a separate decrease’s credit note reduces the renewal invoice, allocated or not (a draft takes no credit yet)', () => {
    // 8 → 6: the next period 60 − 80 = −20.0000 against the renewal invoice, on cn_down.
    const down = { type: 'SubscriptionUnitsChanged', data: decided([subscribed(), raisedAt5, up], change({ units: 6, document: 'separate', prorate: true, effectiveDate: '2026-03-23' }, { changeId: 'down', creditNoteId: 'cn_down' })) } as const;
    expect(down.data).toMatchObject({ creditNoteId: 'cn_down', creditedInvoiceId: 'inv_renewal' });
    spec([subscribed(), raisedAt5, up, down]).when(end()).thenRefuses('invalid_state');
    spec([subscribed(), raisedAt5, up, down]).when(end({ when: 'period_end' })).thenRefuses('invalid_state');
  });

  it('a restore raises the renewal invoice afresh, the next period whole at the units of now: the end’s credits stand, nothing is billed again beside it', () => {
    const ended = decideOne([subscribed(), raisedAt5, up], end());
    const restored = decideOne([subscribed(), raisedAt5, up, ended], restore);
    expect(restored.data).toMatchObject({
      renewalInvoiceId: 'inv_again',
      replacesInvoiceId: 'inv_renewal',
      nextPeriodInvoice: null,
      renewal: { periodStart: '2026-04-01', periodEnd: '2026-05-01', units: 8, adjustments: [] },
    });
    // Ending again: the renewal invoice raised again is removed; no other invoice bills the next period now.
    const again = decideOne([subscribed(), raisedAt5, up, ended, restored], end({}, { operationId: 'op_end_2', invoices: [{ invoiceId: 'inv_again', status: 'draft', sent: false, settled: false }] }));
    expect(again.data).toMatchObject({ removals: [{ invoiceId: 'inv_again', action: 'delete' }], nextPeriodCredits: [] });
  });

  it('an end recorded before ends kept the current period’s charges: its restore raises the removed lines again and bills the credited lines again on one invoice', () => {
    const ended = decideOne([subscribed(), raisedAt5, up], end());
    if (ended.type !== 'SubscriptionEnded') throw new Error('not ended');
    const { carriedCharges: _kept, ...recorded } = ended.data;
    const legacy: SubscriptionEvent = { type: 'SubscriptionEnded', data: recorded };
    const restored = decideOne([subscribed(), raisedAt5, up, legacy], restore);
    expect(restored.data).toMatchObject({
      renewalInvoiceId: 'inv_again',
      replacesInvoiceId: 'inv_renewal',
      nextPeriodInvoice: { invoiceId: 'inv_next', rebills: [{ invoiceId: 'inv_up', creditNoteId: 'cn_end_up' }] },
    });
    expect(restored.data).not.toHaveProperty('renewal');
    const rebilled = reBilledNextPeriodInvoice({ subscription: subscription(subscribed()), credited: [invoiceOf(subscribed(), up)], invoiceId: 'inv_next', lineIds: (i) => `nl_${i}`, now: '2026-03-26T09:00:00.000Z', paymentTermsDays: 14 });
    expect(rebilled.lines.map((l) => [l.lineId, l.revenueType, l.units, l.amount, l.effectiveDate, l.description])).toEqual([
      ['nl_0', 'expansion', 8, '30.0000', '2026-03-31T23:00:00.000Z', '5 → 8 units for the period 2026-04-01 to 2026-05-01'],
    ]);
    expect(rebilled).toMatchObject({ invoiceId: 'inv_next', subtotal: '30.0000', invoiceDate: '2026-03-26T09:00:00.000Z' });
    // Ending again: the re-raised renewal invoice is removed and the re-billing credited in turn.
    const again = decideOne([subscribed(), raisedAt5, up, legacy, restored], end({}, { operationId: 'op_end_2', invoices: [{ invoiceId: 'inv_again', status: 'draft', sent: false, settled: false }] }));
    expect(again.data).toMatchObject({ removals: [{ invoiceId: 'inv_again', action: 'delete' }], nextPeriodCredits: [{ invoiceId: 'inv_next', creditNoteId: 'cn_end_next' }] });
  });

  it('an end recorded before next-period credits existed leaves those lines billing: its restore bills nothing again', () => {
    const legacy: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId: 'sub_1', operationId: 'op_end', endedAt: '2026-03-25T09:00:00.000Z', endDate: '2026-03-25', invoiceUsageNow: false, removals: [{ invoiceId: 'inv_renewal', action: 'delete' }] },
    };
    expect(decideOne([subscribed(), raisedAt5, up, legacy], restore).data).toMatchObject({ renewalInvoiceId: 'inv_again', nextPeriodInvoice: null });
  });
});

describe('ending keeps the current period’s charges billed; a restore raises the renewal invoice afresh', () => {
  // Seats at 10.0000: 5 seats bill 50.0000 a period, 8 seats 80.0000; the period 2026-03-01 – 2026-04-01, 31 days.
  const end = (more: Partial<EndSubscription> = {}, when: 'now' | 'period_end' = 'now'): EndSubscription => ({
    type: 'EndSubscription',
    operationId: 'op_end',
    now: '2026-03-25T09:00:00.000Z',
    today: '2026-03-25',
    organisation: organisation(),
    invoices: [],
    nextPeriodCreditNoteIds: {},
    carriedChargesInvoiceId: 'inv_carried',
    renewalInvoiceCarriesCharges: false,
    request: { when, deleteUnsentInvoices: false, voidApprovedInvoices: false, invoiceUsageNow: false },
    ...more,
  });
  // 5 → 8 from 10 Mar charged on renewal: 30 × 22 / 31 = 21.29032… → 21.2903, left for the renewal invoice.
  const onRenewal = decideOne([subscribed()], change({ units: 8, prorate: true, effectiveDate: '2026-03-10', prorationBehaviour: 'charge_on_renewal' }, { changeId: 'later' }));
  const raisedData = { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-04-01', periodEnd: '2026-05-01', units: 8, adjustments: [{ changeId: 'later', amount: '21.2903' }] };
  const raised: SubscriptionEvent = { type: 'SubscriptionRenewalInvoiceRaised', data: raisedData };
  const draft: InvoiceFacts[] = [{ invoiceId: 'inv_renewal', status: 'draft', sent: false, settled: false }];

  it('bills the charge_on_renewal adjustments no renewal invoice will bill on an invoice of its own, ending now or at period end', () => {
    for (const when of ['now', 'period_end'] as const) {
      const ended = decideOne([subscribed(), onRenewal], end({}, when));
      expect(ended.data).toMatchObject({ carriedCharges: { invoiceId: 'inv_carried', fromInvoiceId: null, adjustments: [{ changeId: 'later', amount: '21.2903' }] } });
      // They leave the subscription's list: no renewal invoice bills them again after a restore.
      expect(stateOf([subscribed(), onRenewal, ended]).life).toMatchObject({ renewalAdjustments: [], invoiceIds: ['inv_first', 'inv_carried'] });
    }
    expect(decideOne([subscribed()], end()).data).toMatchObject({ carriedCharges: null });
  });

  it('keeps the lines of the renewal invoice it removes besides its renewal line, as they were; the restore raises it afresh without them', () => {
    const events = [subscribed(), onRenewal, raised];
    const ended = decideOne(events, end({ invoices: draft, renewalInvoiceCarriesCharges: true }));
    expect(ended.data).toMatchObject({ removals: [{ invoiceId: 'inv_renewal', action: 'delete' }], carriedCharges: { invoiceId: 'inv_carried', fromInvoiceId: 'inv_renewal', adjustments: [] } });
    if (ended.type !== 'SubscriptionEnded' || !ended.data.carriedCharges) throw new Error('no charges kept');
    const removed = renewalInvoice({ state: stateOf(events), raised: raisedData, lineIds: (i) => `rl_${i}`, now: '2026-03-25T09:00:00.000Z', paymentTermsDays: 14 });
    const kept = carriedChargesInvoice({ state: stateOf([...events, ended]), carried: ended.data.carriedCharges, removed, lineIds: (i) => `kl_${i}`, now: '2026-03-25T09:00:00.000Z', paymentTermsDays: 14 });
    expect(kept.lines.map((l) => [l.lineId, l.revenueType, l.units, l.amount])).toEqual([['kl_0', 'expansion', 8, '21.2903']]);
    expect(kept).toMatchObject({ invoiceId: 'inv_carried', subtotal: '21.2903', invoiceDate: '2026-03-25T09:00:00.000Z' });
    expect(decideOne([...events, ended], restore).data).toMatchObject({ renewalInvoiceId: 'inv_again', renewal: { units: 8, adjustments: [] } });
  });

  it('a subscription set to end at period end whose units changed since: the renewal invoice its restore raises bills the new units (found by the lifecycle sequences)', () => {
    const raisedAt5: SubscriptionEvent = { type: 'SubscriptionRenewalInvoiceRaised', data: { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-04-01', periodEnd: '2026-05-01', units: 5, adjustments: [] } };
    const scheduled = decideOne([subscribed(), raisedAt5], end({ invoices: draft }, 'period_end'));
    // Still active until its end: 5 → 3 at renewal, no document (the renewal invoice is out).
    const fewer = decideOne([subscribed(), raisedAt5, scheduled], change({ units: 3 }, { changeId: 'fewer' }));
    expect(fewer.data).toMatchObject({ units: 3, document: null, invoiceId: null, creditNoteId: null });
    const restored = decideOne([subscribed(), raisedAt5, scheduled, fewer], restore);
    expect(restored.data).toMatchObject({ renewalInvoiceId: 'inv_again', nextPeriodInvoice: null, renewal: { periodStart: '2026-04-01', periodEnd: '2026-05-01', units: 3 } });
    if (restored.type !== 'SubscriptionRestored' || !restored.data.renewal) throw new Error('not raised afresh');
    const events = [subscribed(), raisedAt5, scheduled, fewer, restored];
    const again = renewalInvoice({ state: stateOf(events), raised: { subscriptionId: 'sub_1', invoiceId: 'inv_again', ...restored.data.renewal }, lineIds: (i) => `al_${i}`, now: '2026-03-26T09:00:00.000Z', paymentTermsDays: 14 });
    // 3 × 10 = 30.0000: it raised the 5 seats' 50.0000 again before.
    expect(again.lines.map((l) => [l.revenueType, l.units, l.amount])).toEqual([['renewal', 3, '30.0000']]);
    expect(stateOf(events).life).toMatchObject({ renewalInvoiceId: 'inv_again', nextPeriodUnits: 3, removedRenewalInvoiceId: null });
  });
});

describe('next-period property: separate changes after the renewal invoice bill the next period exactly once', () => {
  it('the renewal invoice’s renewal line plus every separate difference equals the final units’ whole-period price, whatever mix of amend, separate and proration', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...plans),
        fc.integer({ min: 0, max: 30 }),
        fc.array(fc.record({ units: fc.integer({ min: 0, max: 40 }), prorate: fc.boolean(), amend: fc.boolean() }), { minLength: 1, maxLength: 6 }),
        (pricing, initial, steps) => {
          const prices = { type: pricing.planType, price: pricing.price, freeUnits: pricing.freeUnits, tiers: pricing.tiers };
          const events: SubscriptionEvent[] = [
            subscribed({ units: initial, pricing }),
            { type: 'SubscriptionRenewalInvoiceRaised', data: { subscriptionId: 'sub_1', invoiceId: 'inv_renewal', periodStart: '2026-04-01', units: initial } },
          ];
          // What the renewal line bills (amend rewrites it) plus what the separate documents bill for the next period.
          let renewalLine = planAmount(prices, initial);
          let separately = 0n;
          let current = initial;
          steps.forEach((step, i) => {
            const lower = planAmount(prices, step.units) < planAmount(prices, current);
            if (step.units === current || (lower && !step.prorate)) return;
            const command = change(
              { units: step.units, prorate: step.prorate, effectiveDate: step.prorate ? '2026-03-20' : null, document: step.amend ? 'amend' : 'separate' },
              { changeId: `c${i}`, plan: plan({ minimumUnits: 0 }) },
            );
            const state = events.reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
            if (step.amend && state.status !== 'none' && state.life.nextPeriodBilledSeparately) {
              // Amending after a separate document billed part of the next period would bill it twice.
              spec(events).when(command).thenRefuses('document_not_available', 'document');
              return;
            }
            const data = decided(events, command);
            events.push({ type: 'SubscriptionUnitsChanged', data });
            if (data.document === 'amend') renewalLine = planAmount(prices, step.units);
            separately += data.nextPeriod ? parseMoney(data.nextPeriod.amount) : 0n;
            current = step.units;
          });
          expect(renewalLine + separately).toBe(planAmount(prices, current));
        },
      ),
      { numRuns: 300 },
    );
  });
});
