import { apiKeysProjection } from '../../projections/read-models/api-keys';
import { chargesProjection } from '../../projections/read-models/charges';
import { customersProjection } from '../../projections/read-models/customers';
import { invoicesProjection } from '../../projections/read-models/invoices';
import { metersProjection } from '../../projections/read-models/meters';
import { organisationsProjection } from '../../projections/read-models/organisations';
import { plansProjection } from '../../projections/read-models/plans';
import { subscriptionsProjection } from '../../projections/read-models/subscriptions';
import { raisedInvoiceData } from '../support/events';
import { projectionSpec } from '../support/projection-spec';
import { organisationSettings } from '../support/organisation-fixtures';
import { londonSubscription, londonSubscriptionDocument } from '../support/subscription-fixtures';

const T0 = '2026-01-01T00:00:00.000Z';
const settings = organisationSettings;

describe('projections: given events, then documents', () => {
  it('organisations: creation, settings, accounting connection, account mapping, plan limits and sandbox', async () => {
    await projectionSpec(organisationsProjection)
      .given([
        { type: 'OrganisationCreated', data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings } },
        { type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { name: 'Acme Ltd', setupMode: true } } },
        { type: 'AccountingConnected', data: { organisationId: 'org_1', tenantId: 't_1', tenantName: 'Acme', accounts: [] } },
        { type: 'AccountsMapped', data: { organisationId: 'org_1', revenue: '200', usageRevenue: null } },
        { type: 'PlanLimitsSet', data: { organisationId: 'org_1', customers: 5, subscriptions: null } },
        { type: 'SandboxOpened', data: { organisationId: 'org_1', sandboxId: 'org_2', copy: { settings: true, catalogue: false, customers: false, subscriptions: false } } },
      ])
      .then('organisations', [
        {
          id: 'org_1',
          object: 'organisation',
          name: 'Acme Ltd',
          timezone: 'Europe/London',
          default_currency: 'GBP',
          setup_mode: true,
          can_create_accounting_contacts: false,
          livemode: true,
          renewal_lead_days: 7,
          usage_grace_days: 1,
          payment_terms_days: 14,
          unit_change_document: 'separate',
          sandbox: 'org_2',
          live_organisation: null,
          accounting: { connected: true, tenant_id: 't_1', revenue_account: '200', usage_revenue_account: null },
          plan_limits: { customers: 5, subscriptions: null },
          created: T0,
        },
      ]);
  });

  it('organisations: disconnecting clears the connection', async () => {
    await projectionSpec(organisationsProjection)
      .given([
        { type: 'OrganisationCreated', data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings } },
        { type: 'AccountingConnected', data: { organisationId: 'org_1', tenantId: 't_1', tenantName: 'Acme', accounts: [] } },
        { type: 'AccountingDisconnected', data: { organisationId: 'org_1', tenantId: 't_1' } },
      ])
      .then('organisations', [
        expect.objectContaining({ id: 'org_1', accounting: { connected: false, tenant_id: null, revenue_account: null, usage_revenue_account: null } }),
      ]);
  });

  it('api_keys: a created key keeps only its hash; revoking marks it revoked', async () => {
    const created = { apiKeyId: 'key_1', organisationId: 'org_1', livemode: false, name: 'CI', scopes: ['customers:read'], expiresAt: null, secretHash: 'h', last4: 'abcd' };
    await projectionSpec(apiKeysProjection)
      .given([
        { type: 'ApiKeyCreated', data: created },
        { type: 'ApiKeyCreated', data: { ...created, apiKeyId: 'key_2', secretHash: 'h2' } },
        { type: 'ApiKeyRevoked', data: { apiKeyId: 'key_2', organisationId: 'org_1' } },
      ])
      .then('api_keys', [
        { id: 'key_1', object: 'api_key', name: 'CI', scopes: ['customers:read'], expires_at: null, livemode: false, status: 'active', last4: 'abcd', created: T0, _organisation: 'org_1', _secret_hash: 'h' },
        { id: 'key_2', object: 'api_key', name: 'CI', scopes: ['customers:read'], expires_at: null, livemode: false, status: 'revoked', last4: 'abcd', created: T0, _organisation: 'org_1', _secret_hash: 'h2' },
      ]);
  });

  it('customers: imported, then updated', async () => {
    await projectionSpec(customersProjection)
      .given([
        {
          type: 'CustomerImported',
          data: { customerId: 'cus_1', organisationId: 'org_1', code: 'C1', name: 'Ada', firstName: null, lastName: null, email: null, accountingContactId: 'ct_1', source: 'created_contact' },
        },
        { type: 'CustomerUpdated', data: { customerId: 'cus_1', organisationId: 'org_1', changes: { status: 'inactive', email: 'ada@example.com' } } },
      ])
      .then('customers', [
        { id: 'cus_1', object: 'customer', code: 'C1', name: 'Ada', first_name: null, last_name: null, email: 'ada@example.com', status: 'inactive', accounting_contact_id: 'ct_1', created: T0, _organisation: 'org_1' },
      ]);
  });

  it('meters and charges: defined as created', async () => {
    await projectionSpec(metersProjection)
      .given([{ type: 'MeterDefined', data: { meterId: 'mtr_1', organisationId: 'org_1', code: 'api', name: 'API calls', unitLabels: { singular: 'call', plural: 'calls' } } }])
      .then('meters', [{ id: 'mtr_1', object: 'meter', code: 'api', name: 'API calls', unit_labels: { singular: 'call', plural: 'calls' }, created: T0, _organisation: 'org_1' }]);
    await projectionSpec(chargesProjection)
      .given([
        {
          type: 'ChargeCreated',
          data: { chargeId: 'chg_1', organisationId: 'org_1', code: 'setup', name: 'Setup', description: null, currency: 'GBP', price: '50.0000', allowsPriceOverride: false, status: 'active' },
        },
      ])
      .then('charges', [
        { id: 'chg_1', object: 'charge', code: 'setup', name: 'Setup', description: null, currency: 'GBP', price: '50.0000', allows_price_override: false, status: 'active', created: T0, _organisation: 'org_1' },
      ]);
  });

  it('plans: created with tiers in snake case, then renamed and retired', async () => {
    const plan = {
      planId: 'plan_1',
      organisationId: 'org_1',
      code: 'team',
      name: 'Team',
      type: 'volume',
      interval: { unit: 'month', count: 1 },
      currency: 'GBP',
      price: '0.0000',
      minimumUnits: 1,
      freeUnits: 0,
      unitLabels: { singular: null, plural: null },
      allowsPriceOverride: false,
      status: 'active',
      tiers: [{ fromUnits: 1, toUnits: null, price: '9.0000' }],
      meters: [],
    };
    await projectionSpec(plansProjection)
      .given([
        { type: 'PlanCreated', data: plan },
        { type: 'PlanUpdated', data: { planId: 'plan_1', organisationId: 'org_1', changes: { name: 'Team (old)', status: 'legacy' } } },
      ])
      .then('plans', [
        {
          id: 'plan_1',
          object: 'plan',
          code: 'team',
          name: 'Team (old)',
          type: 'volume',
          interval: { unit: 'month', count: 1 },
          currency: 'GBP',
          price: '0.0000',
          minimum_units: 1,
          free_units: 0,
          unit_labels: { singular: null, plural: null },
          allows_price_override: false,
          status: 'legacy',
          tiers: [{ from_units: 1, to_units: null, price: '9.0000' }],
          meters: [],
          created: T0,
          _organisation: 'org_1',
        },
      ]);
  });

  it('subscriptions: created, with its values computed from its price snapshot', async () => {
    await projectionSpec(subscriptionsProjection)
      .given([
        {
          type: 'SubscriptionCreated',
          data: londonSubscription,
        },
      ])
      .then('subscriptions', [londonSubscriptionDocument]);
  });

  const raised = raisedInvoiceData(T0, '45.0000');

  it('invoices: raised (not yet in the accounting system), then synced with its number and total', async () => {
    const synced = { invoiceId: 'inv_1', accountingInvoiceId: 'ext_1', number: 'INV-0001', status: 'draft', total: '49.5000', amountPaid: '0.0000', creditNoteAmount: '0.0000', sent: false };
    await projectionSpec(invoicesProjection)
      .given([{ type: 'InvoiceRaised', data: raised }, { type: 'InvoiceSynced', data: synced }])
      .then('invoices', [
        {
          id: 'inv_1',
          object: 'invoice',
          customer: 'cus_1',
          subscription: 'sub_1',
          number: 'INV-0001',
          reference: null,
          status: 'draft',
          currency: 'GBP',
          invoice_date: T0,
          due_date: null,
          subtotal: '45.0000',
          total: '49.5000',
          credit_note_amount: '0.0000',
          amount_paid: '0.0000',
          sent: false,
          accounting: { sync_status: 'synced', invoice_id: 'ext_1', sync_error: null },
          lines: [],
          created: T0,
          _organisation: 'org_1',
        },
      ]);
  });

  it('invoices: a refused push leaves it failed with the system’s message', async () => {
    await projectionSpec(invoicesProjection)
      .given([{ type: 'InvoiceRaised', data: raised }, { type: 'InvoiceSyncFailed', data: { invoiceId: 'inv_1', error: 'Account 200 is archived' } }])
      .then('invoices', [
        expect.objectContaining({ id: 'inv_1', status: 'not_in_external', total: '45.0000', accounting: { sync_status: 'failed', invoice_id: null, sync_error: 'Account 200 is archived' } }),
      ]);
  });
});
