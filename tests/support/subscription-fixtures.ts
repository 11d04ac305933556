import type { ChargeDefinition } from '../../domain/charge/events';
import type { PlanDefinition } from '../../domain/catalogue/types';
import type { OpenOrganisation } from '../../domain/organisation/decider';
import { DEFAULT_SETTINGS } from '../../domain/organisation/settings';
import type { CreateSubscription } from '../../domain/subscription/create';

/** A per-seat plan, a charge, an open organisation and a create-subscription command for them: the subscription specs' givens. */
export const plan: PlanDefinition = {
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
};
export const charge: ChargeDefinition = {
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

export const organisation = (overrides: Partial<OpenOrganisation> = {}, settings: Partial<OpenOrganisation['settings']> = {}): OpenOrganisation => ({
  status: 'open',
  organisationId: 'org_1',
  livemode: true,
  liveOrganisationId: null,
  settings: { ...DEFAULT_SETTINGS, name: 'Org', timezone: 'Australia/Sydney', defaultCurrency: 'GBP', canCreateAccountingContacts: true, ...settings },
  sandboxId: null,
  accounting: { tenantId: 't_1', accounts: [], revenueAccount: '200', usageRevenueAccount: null },
  planLimits: { customers: null, subscriptions: null },
  ...overrides,
});

export const create = (overrides: Partial<CreateSubscription['request']> = {}, more: Partial<CreateSubscription> = {}): CreateSubscription => ({
  type: 'CreateSubscription',
  subscriptionId: 'sub_1',
  firstInvoiceId: 'inv_1',
  // 23:30 UTC on 31 Jan is already 1 Feb in Sydney: "today" is the organisation's date.
  now: '2026-01-31T23:30:00.000Z',
  organisation: organisation(),
  counts: { liveSubscriptions: 0, metersDefined: false },
  planCode: 'seats',
  customer: { id: 'cus_1', code: 'C1', status: 'active' },
  plan,
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
