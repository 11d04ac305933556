import type { ChargeDefinition } from '../../domain/charge/events';
import type { PlanDefinition } from '../../domain/catalogue/types';
import { firstInvoice } from '../../domain/invoice/first-invoice';
import { countsNeeded, decideCreation } from '../../domain/subscription/create';
import { subscriptionDecider } from '../../domain/subscription/decider';
import type { SubscriptionCreatedData, SubscriptionEvent } from '../../domain/subscription/events';
import { deciderSpec } from '../support/decider-spec';
import { createSubscriptionCommand, openOrganisation, seatsPlan, subscriptionCreatedData } from '../support/subscription-fixtures';

const spec = deciderSpec(subscriptionDecider);

const plan: PlanDefinition = seatsPlan();
const charge: ChargeDefinition = {
  chargeId: 'chg_1',
  organisationId: 'org_1',
  code: 'setup',
  name: 'Setup',
  description: null,
  currency: 'GBP',
  price: '50.0000',
  allowsPriceOverride: false,
  status: 'active',
};

const organisation = openOrganisation;

const create = createSubscriptionCommand;

const created = (overrides: Partial<SubscriptionCreatedData> = {}): Extract<SubscriptionEvent, { type: 'SubscriptionCreated' }> => ({
  type: 'SubscriptionCreated',
  data: subscriptionCreatedData(overrides),
});

describe('subscription decider: creation', () => {
  it('starts today in the organisation’s timezone and renews a period later', () => {
    spec([]).when(create()).then([created()]);
  });

  it('is pending with a future start and ends after its cycles', () => {
    spec([])
      .when(create({ startDate: '2026-03-31', endAfterCycles: 2 }))
      .then([created({ status: 'pending', startDate: '2026-03-31', currentPeriodStart: '2026-03-31', renewalDate: '2026-04-30', endDate: '2026-05-31', endAfterCycles: 2 })]);
  });

  it('bills the period holding today when started in the past', () => {
    spec([])
      .when(create({ startDate: '2025-11-30' }))
      .then([created({ startDate: '2025-11-30', currentPeriodStart: '2026-01-30', renewalDate: '2026-02-28' })]);
  });

  it('records the charges of the first invoice, at their own or overridden price', () => {
    const overridable = { ...charge, allowsPriceOverride: true };
    spec([])
      .when(create({}, { charges: [{ chargeId: 'chg_1', charge: overridable, quantity: 2, price: '40.0000', applyDiscount: true }] }))
      .then([
        created({
          firstInvoiceCharges: [{ chargeId: 'chg_1', name: 'Setup', description: null, price: '40.0000', quantity: 2, applyDiscount: true }],
        }),
      ]);
  });

  it('does nothing when the subscription already exists (a retry under the same id)', () => {
    spec([created()]).when(create({ units: 9 })).then([]);
  });

  it('refuses units below the minimum, missing units, and units on a flat fee plan', () => {
    spec([]).when(create({ units: 1 })).thenRefuses('invalid_parameter', 'units');
    spec([]).when(create({ units: null })).thenRefuses('invalid_parameter', 'units');
    spec([]).when(create({ units: 2, minimumUnits: 3 })).thenRefuses('invalid_parameter', 'units');
    spec([]).when(create({ units: 3, minimumUnits: 1 })).thenRefuses('invalid_parameter', 'minimum_units');
    spec([]).when(create({ units: 1 }, { plan: { ...plan, type: 'flat_fee', minimumUnits: 0 } })).thenRefuses('invalid_parameter', 'units');
  });

  it('refuses plans that cannot be sold, overrides not allowed, and foreign-currency charges', () => {
    spec([]).when(create({}, { plan: { ...plan, status: 'legacy' } })).thenRefuses('invalid_parameter', 'plan_code');
    spec([]).when(create({ flatFeePrice: '5.0000' })).thenRefuses('invalid_parameter', 'flat_fee_price');
    spec([])
      .when(create({}, { charges: [{ chargeId: 'chg_1', charge: { ...charge, currency: 'EUR' }, quantity: 1, price: null, applyDiscount: false }] }))
      .thenRefuses('invalid_parameter', 'charges.0.charge');
    spec([])
      .when(create({}, { charges: [{ chargeId: 'chg_1', charge, quantity: 1, price: '1.0000', applyDiscount: false }] }))
      .thenRefuses('invalid_parameter', 'charges.0.price');
  });

  it('keeps the start date from the future in Setup Mode', () => {
    spec([])
      .when(create({ startDate: '2026-02-02' }, { organisation: organisation({}, { setupMode: true }) }))
      .thenRefuses('invalid_parameter', 'start_date');
  });
});

describe('countsNeeded: the handler may skip a count the rules would ignore', () => {
  const outcome = (command: ReturnType<typeof create>) => {
    try {
      return decideCreation(command);
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };
  const accountings = [null, { tenantId: 't_1', accounts: [], revenueAccount: '200', usageRevenueAccount: null }, { tenantId: 't_1', accounts: [], revenueAccount: '200', usageRevenueAccount: '270' }];
  it.each(
    [true, false].flatMap((livemode) =>
      [true, false].flatMap((setupMode) => [null, 1].flatMap((limit) => accountings.map((accounting) => ({ livemode, setupMode, limit, accounting })))),
    ),
  )('decides the same with the unneeded counts left at 0 / false: %j', ({ livemode, setupMode, limit, accounting }) => {
    const org = organisation({ livemode, accounting, planLimits: { customers: null, subscriptions: limit } }, { setupMode });
    const needed = countsNeeded(org);
    for (const counts of [{ liveSubscriptions: 5, metersDefined: true }, { liveSubscriptions: 0, metersDefined: false }]) {
      const skipped = { liveSubscriptions: needed.liveSubscriptions ? counts.liveSubscriptions : 0, metersDefined: needed.metersDefined && counts.metersDefined };
      expect(outcome(create({}, { organisation: org, counts: skipped }))).toEqual(outcome(create({}, { organisation: org, counts })));
    }
  });
});

describe('subscription decider: the organisation, plan, charge and customer rules, in the document’s order', () => {
  it('refuses a live organisation without an accounting connection, unless in Setup Mode', () => {
    spec([]).when(create({}, { organisation: organisation({ accounting: null }) })).thenRefuses('accounting_not_connected');
    spec([])
      .when(create({}, { organisation: organisation({ accounting: null }, { setupMode: true }) }))
      .then([created({ firstInvoiceId: null })]);
  });

  it('refuses unmapped revenue accounts, and an unmapped usage revenue account once a meter is defined', () => {
    const unmapped = organisation({ accounting: { tenantId: 't_1', accounts: [], revenueAccount: null, usageRevenueAccount: null } });
    spec([]).when(create({}, { organisation: unmapped })).thenRefuses('accounting_accounts_not_mapped');
    spec([]).when(create({}, { counts: { liveSubscriptions: 0, metersDefined: true } })).thenRefuses('accounting_accounts_not_mapped');
  });

  it('refuses a live organisation at its plan limit, never a sandbox', () => {
    const limited = { subscriptions: 2, customers: null };
    const atLimit = { liveSubscriptions: 2, metersDefined: false };
    spec([]).when(create({}, { organisation: organisation({ planLimits: limited }), counts: atLimit })).thenRefuses('plan_limit_reached');
    spec([])
      .when(create({}, { organisation: organisation({ planLimits: limited, livemode: false }), counts: atLimit }))
      .then([created()]);
  });

  it('refuses an unknown plan, an unknown or foreign charge, an unknown customer, and contact creation without permission', () => {
    spec([]).when(create({}, { plan: null })).thenRefuses('plan_not_found', 'plan_code');
    spec([])
      .when(create({}, { charges: [{ chargeId: 'chg_x', charge: null, quantity: 1, price: null, applyDiscount: false }] }))
      .thenRefuses('charge_not_found', 'charges.0.charge');
    spec([])
      .when(create({}, { charges: [{ chargeId: 'chg_1', charge: { ...charge, organisationId: 'org_2' }, quantity: 1, price: null, applyDiscount: false }] }))
      .thenRefuses('charge_not_found', 'charges.0.charge');
    const unknown = { status: 'none', id: 'cus_9', code: 'C9', createRequested: false } as const;
    spec([]).when(create({}, { customer: unknown })).thenRefuses('customer_not_found', 'customer_code');
    spec([])
      .when(create({}, { customer: { ...unknown, createRequested: true }, organisation: organisation({}, { canCreateAccountingContacts: false }) }))
      .thenRefuses('accounting_contact_creation_disabled');
  });

  it('refuses an inactive customer', () => {
    spec([]).when(create({}, { customer: { id: 'cus_1', code: 'C1', status: 'inactive' } })).thenRefuses('invalid_parameter', 'customer_code');
  });

  it('minimum_units 0 means the plan’s minimum applies, on any plan', () => {
    spec([]).when(create({ units: 5, minimumUnits: 0 })).then([created()]);
    spec([]).when(create({ units: 1, minimumUnits: 0 })).thenRefuses('invalid_parameter', 'units');
    spec([])
      .when(create({ units: null, minimumUnits: 0 }, { plan: { ...plan, type: 'flat_fee', minimumUnits: 0 } }))
      .then([created({ units: 0, pricing: { planType: 'flat_fee', price: '10.0000', freeUnits: 0, tiers: [] } })]);
  });
});

describe('first invoice', () => {
  it('bills the first period and the charges, discounting charges only when asked', () => {
    const setup = { chargeId: 'chg_1', name: 'Setup', description: null, price: '50.0000' };
    const subscription = created({
      discountPercent: '12.50',
      firstInvoiceCharges: [
        { ...setup, quantity: 1, applyDiscount: false },
        { ...setup, quantity: 3, applyDiscount: true },
      ],
    }).data;
    const invoice = firstInvoice({
      subscription,
      lineIds: ['il_0', 'il_1', 'il_2'],
      now: '2026-01-31T23:30:00.000Z',
      paymentTermsDays: 14,
    });
    // plan 5 × 10 = 50.0000, 12.5% = 6.2500 → 43.7500; charge 50 (no discount); 3 × 50 = 150 − 18.75 = 131.25
    expect(invoice.lines.map((l) => [l.amount, l.discountAmount, l.chargeAmount])).toEqual([
      ['50.0000', '6.2500', '43.7500'],
      ['50.0000', '0.0000', '50.0000'],
      ['150.0000', '18.7500', '131.2500'],
    ]);
    expect(invoice.subtotal).toBe('225.0000');
    expect(invoice.dueDate).toBe('2026-02-14T23:30:00.000Z');
    // The period starts at midnight on 1 February in Sydney (UTC+11).
    expect(invoice.lines[0]!.effectiveDate).toBe('2026-01-31T13:00:00.000Z');
  });
});
