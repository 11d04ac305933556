import type { PlanDefinition } from '../../domain/catalogue/types';
import type { OpenOrganisation } from '../../domain/organisation/state';
import { DEFAULT_SETTINGS } from '../../domain/organisation/settings';
import type { CreateSubscription } from '../../domain/subscription/create';
import type { SubscriptionCreatedData } from '../../domain/subscription/events';

/** A per-unit plan `seats` of org_1: 10.0000 a seat, at least 2 seats, monthly, in pounds. */
export const seatsPlan = (overrides: Partial<PlanDefinition> = {}): PlanDefinition => ({
  planId: 'plan_1',
  organisationId: 'org_1',
  code: 'seats',
  name: 'Seats',
  type: 'per_unit',
  interval: { unit: 'month', count: 1 },
  currency: 'GBP',
  price: '10.0000',
  minimumUnits: 2,
  freeUnits: 0,
  unitLabels: { singular: 'seat', plural: 'seats' },
  allowsPriceOverride: false,
  status: 'active',
  tiers: [],
  meters: [],
  ...overrides,
});

/** org_1, live, connected with its revenue account mapped, in Sydney, allowed to create contacts. */
export const openOrganisation = (overrides: Partial<OpenOrganisation> = {}, settings: Partial<OpenOrganisation['settings']> = {}): OpenOrganisation => ({
  status: 'open',
  organisationId: 'org_1',
  livemode: true,
  liveOrganisationId: null,
  settings: { ...DEFAULT_SETTINGS, name: 'Org', timezone: 'Australia/Sydney', defaultCurrency: 'GBP', canCreateAccountingContacts: true, ...settings },
  sandboxId: null,
  resetGeneration: 0,
  accounting: { tenantId: 't_1', accounts: [], revenueAccount: '200', usageRevenueAccount: null },
  planLimits: { customers: null, subscriptions: null },
  cpi: {},
  testClock: null,
  ...overrides,
});

/** A request to create sub_1 on the seats plan for customer C1 of org_1, at 23:30 UTC on 31 Jan (1 Feb in Sydney). */
export const createSubscriptionCommand = (overrides: Partial<CreateSubscription['request']> = {}, more: Partial<CreateSubscription> = {}): CreateSubscription => ({
  type: 'CreateSubscription',
  subscriptionId: 'sub_1',
  firstInvoiceId: 'inv_1',
  // 23:30 UTC on 31 Jan is already 1 Feb in Sydney: "today" is the organisation's date.
  now: '2026-01-31T23:30:00.000Z',
  organisation: openOrganisation(),
  counts: { liveSubscriptions: 0, metersDefined: false },
  planCode: 'seats',
  customer: { id: 'cus_1', code: 'C1', status: 'active' },
  plan: seatsPlan(),
  charges: [],
  request: {
    units: 5,
    discountPercent: '0.00',
    invoiceReference: null,
    startDate: null,
    flatFeePrice: null,
    minimumUnits: null,
    meters: [],
    endAfterCycles: null,
    label: null,
    cpiEnabled: false,
    ...overrides,
  },
  ...more,
});

/** The facts of sub_1 on the seats plan: 5 units, its first period 2026-02-01 to 2026-03-01 in Sydney. */
export const subscriptionCreatedData = (overrides: Partial<SubscriptionCreatedData> = {}): SubscriptionCreatedData => ({
  subscriptionId: 'sub_1',
  organisationId: 'org_1',
  customerId: 'cus_1',
  customerCode: 'C1',
  planId: 'plan_1',
  currency: 'GBP',
  interval: { unit: 'month', count: 1 },
  timezone: 'Australia/Sydney',
  status: 'active',
  startDate: '2026-02-01',
  currentPeriodStart: '2026-02-01',
  renewalDate: '2026-03-01',
  endDate: null,
  units: 5,
  minimumUnits: 0,
  discountPercent: '0.00',
  invoiceReference: null,
  label: null,
  endAfterCycles: null,
  cpiEnabled: false,
  pricing: { planType: 'per_unit', price: '10.0000', freeUnits: 0, tiers: [] },
  meters: [],
  planName: 'Seats',
  firstInvoiceId: 'inv_1',
  firstInvoiceCharges: [],
  ...overrides,
});

/** sub_1 as the projection specs create it: in London from 2026-01-01, 10 % off, PO-1, with CPI. */
export const londonSubscription = subscriptionCreatedData({
  timezone: 'Europe/London',
  startDate: '2026-01-01',
  currentPeriodStart: '2026-01-01',
  renewalDate: '2026-02-01',
  discountPercent: '10.00',
  invoiceReference: 'PO-1',
  cpiEnabled: true,
});

/** Its read-model document, created at 2026-01-01T00:00:00.000Z. */
export const londonSubscriptionDocument = {
  id: 'sub_1',
  object: 'subscription',
  customer: 'cus_1',
  customer_code: 'C1',
  plan: 'plan_1',
  status: 'active',
  currency: 'GBP',
  interval: { unit: 'month', count: 1 },
  timezone: 'Europe/London',
  start_date: '2026-01-01',
  renewal_date: '2026-02-01',
  end_date: null,
  units: 5,
  minimum_units: 0,
  discount_percent: '10.00',
  cancel_at_period_end: false,
  end_after_cycles: null,
  label: null,
  invoice_reference: 'PO-1',
  // 5 × 10.0000 = 50.0000, less 10 % = 45.0000 a month; × 12 = 540.0000 a year.
  renewal_value: '45.0000',
  usage_value: '0.0000',
  usage_value_annual: '0.0000',
  minimum_usage_value: '0.0000',
  meters: [],
  cpi_enabled: true,
  created: '2026-01-01T00:00:00.000Z',
  _organisation: 'org_1',
  _pricing: { planType: 'per_unit', price: '10.0000', freeUnits: 0, tiers: [] },
  _meters: [],
  _closed_usage: [],
};
