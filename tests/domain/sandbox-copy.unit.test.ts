import { customerDecider } from '../../domain/customer/decider';
import type { CustomerEvent } from '../../domain/customer/events';
import { sandboxSettings, withNeeds } from '../../domain/organisation/sandbox-copy';
import { DEFAULT_SETTINGS, type OrganisationSettings } from '../../domain/organisation/settings';
import { copiedSubscription, isCopied } from '../../domain/subscription/copy';
import { subscriptionDecider } from '../../domain/subscription/decider';
import { initialLifecycle } from '../../domain/subscription/lifecycle';
import { deciderSpec } from '../support/decider-spec';
import { subscriptionCreatedData } from '../support/subscription-fixtures';

const none = { settings: false, catalogue: false, customers: false, subscriptions: false };

describe('what a sandbox copies', () => {
  it('ticks what each option needs, and nothing more', () => {
    expect(withNeeds(none)).toEqual(none);
    expect(withNeeds({ ...none, customers: true })).toEqual({ ...none, customers: true });
    expect(withNeeds({ ...none, catalogue: true })).toEqual({ ...none, settings: true, catalogue: true });
    expect(withNeeds({ ...none, subscriptions: true })).toEqual({ settings: true, catalogue: true, customers: true, subscriptions: true });
  });

  it('copies the live settings with Setup Mode off; a reset keeps the sandbox API settings; unticked, the defaults or the sandbox’s own', () => {
    const live: OrganisationSettings = { ...DEFAULT_SETTINGS, name: 'Live', timezone: 'Europe/Paris', defaultCurrency: 'EUR', setupMode: true, paymentTermsDays: 30, canCreateAccountingContacts: true, unitChangeDocument: 'amend' };
    const sandbox: OrganisationSettings = { ...DEFAULT_SETTINGS, name: 'Sandbox', timezone: 'Europe/London', defaultCurrency: 'GBP' };
    expect(sandboxSettings(live, { ...none, settings: true })).toEqual({ ...live, setupMode: false });
    expect(sandboxSettings(live, { ...none, settings: true }, sandbox)).toEqual({ ...live, setupMode: false, canCreateAccountingContacts: false, unitChangeDocument: 'separate' });
    expect(sandboxSettings(live, none)).toEqual({ ...DEFAULT_SETTINGS, name: 'Live', timezone: 'Europe/Paris', defaultCurrency: 'EUR' });
    expect(sandboxSettings(live, none, sandbox)).toBe(sandbox);
  });

  it('copies a pending or active subscription’s terms as they stand into the sandbox’s objects, without its invoice or one-off charges', () => {
    const meter = { meterId: 'mtr_live', meterCode: 'api', name: 'API', model: 'per_unit' as const, price: '0.0010', includedUnits: 0, tiers: [], minimumUnits: 0, planMinimumUnits: 0 };
    const created = subscriptionCreatedData({ meters: [meter], firstInvoiceCharges: [{ chargeId: 'chg_1', name: 'Setup', description: null, price: '10.0000', quantity: 1, applyDiscount: false }] });
    // 5 units at creation, 8 since a change: the copy has 8.
    const live = { status: 'active' as const, subscription: created, life: { ...initialLifecycle(created), units: 8 } };
    const target = { subscriptionId: 'sub_copy', organisationId: 'org_sbx', resetGeneration: 2, customerId: 'cus_sbx', planId: 'plan_sbx', meterIds: new Map([['api', 'mtr_sbx']]) };
    expect(copiedSubscription(live, target)).toEqual({
      ...created,
      subscriptionId: 'sub_copy',
      organisationId: 'org_sbx',
      resetGeneration: 2,
      customerId: 'cus_sbx',
      planId: 'plan_sbx',
      units: 8,
      meters: [{ ...meter, meterId: 'mtr_sbx' }],
      firstInvoiceId: null,
      firstInvoiceCharges: [],
    });
    expect(isCopied(live)).toBe(true);
    expect(isCopied({ ...live, status: 'ended' })).toBe(false);
    expect(isCopied({ status: 'none' })).toBe(false);
    // Recorded once: a copy run again decides nothing.
    const copied = copiedSubscription(live, target);
    deciderSpec(subscriptionDecider)([]).when({ type: 'CopySubscription', subscription: copied }).then([{ type: 'SubscriptionCreated', data: copied }]);
    deciderSpec(subscriptionDecider)([{ type: 'SubscriptionCreated', data: copied }]).when({ type: 'CopySubscription', subscription: copied }).then([]);
  });

  it('links a copied customer to one contact per accounting organisation, the first', () => {
    const imported: CustomerEvent = {
      type: 'CustomerImported',
      data: { customerId: 'cus_1', organisationId: 'org_sbx', code: 'C1', name: 'One', firstName: null, lastName: null, email: null, accountingContactId: null, source: 'sandbox_copy' },
    };
    const linked: CustomerEvent = { type: 'CustomerContactLinked', data: { customerId: 'cus_1', organisationId: 'org_sbx', accountingContactId: 'ct_1', tenantId: 'demo_a' } };
    const spec = deciderSpec(customerDecider);
    spec([imported]).when({ type: 'LinkContact', accountingContactId: 'ct_1', tenantId: 'demo_a' }).then([linked]);
    spec([imported, linked]).when({ type: 'LinkContact', accountingContactId: 'ct_2', tenantId: 'demo_a' }).then([]);
    // Moved to another accounting organisation: the contact there is linked in its place.
    spec([imported, linked])
      .when({ type: 'LinkContact', accountingContactId: 'ct_b', tenantId: 'demo_b' })
      .then([{ type: 'CustomerContactLinked', data: { customerId: 'cus_1', organisationId: 'org_sbx', accountingContactId: 'ct_b', tenantId: 'demo_b' } }]);
    // A link recorded before its accounting organisation was kept stands for the one in use.
    const unrecorded: CustomerEvent = { type: 'CustomerContactLinked', data: { customerId: 'cus_1', organisationId: 'org_sbx', accountingContactId: 'ct_1' } };
    spec([imported, unrecorded]).when({ type: 'LinkContact', accountingContactId: 'ct_b', tenantId: 'demo_b' }).then([]);
    spec([]).when({ type: 'LinkContact', accountingContactId: 'ct_1', tenantId: 'demo_a' }).thenRefuses('customer_not_found');
  });
});
