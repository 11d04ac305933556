import { revokeApiKey } from '../../commands/api-key/revoke-api-key';
import { createCharge } from '../../commands/catalogue/create-charge';
import { createPlan, type PlanInput } from '../../commands/catalogue/create-plan';
import { defineMeter } from '../../commands/catalogue/define-meter';
import { updatePlan } from '../../commands/catalogue/update-plan';
import { customerIdFor, meterIdFor, planIdFor } from '../../commands/plumbing/ids-by-code';
import { updateCustomer } from '../../commands/customer/update-customer';
import { changeOrganisationSettings } from '../../commands/organisation/change-organisation-settings';
import { openSandbox } from '../../commands/sandbox/open-sandbox';
import { organisationCommand } from '../../commands/plumbing/organisation-command';
import { createSubscription } from '../../commands/subscription/create-subscription';
import { apiKeyStream } from '../../domain/api-key/events';
import { chargeStream } from '../../domain/charge/events';
import { customerStream } from '../../domain/customer/events';
import { meterStream } from '../../domain/meter/events';
import { organisationStream } from '../../domain/organisation/events';
import { planStream } from '../../domain/plan/events';
import { subscriptionStream } from '../../domain/subscription/events';
import type { DomainEvent } from '../../domain/shared/decider';
import type { AccountingSystem } from '../../infra/accounting/port';
import { derivedId } from '../../infra/ids';
import { handlerSpec, specCaller } from '../support/handler-spec';
import { organisationSettings } from '../support/organisation-fixtures';

const org = { id: 'org_1', livemode: true };
const settings = organisationSettings;
const organisationCreated = { type: 'OrganisationCreated', data: { organisationId: 'org_1', livemode: true, liveOrganisationId: null, settings } };
const noCopy = { settings: false, catalogue: false, customers: false, subscriptions: false };

/** Handlers that only need the log are run with an accounting system that fails the test if asked anything. */
const noAccounting = new Proxy({} as AccountingSystem, {
  get: (_target, name) => {
    throw new Error(`the accounting system was asked for ${String(name)}`);
  },
});

describe('command handlers: given streams, when a command, then new events', () => {
  it('changes only the settings that differ', async () => {
    await handlerSpec()
      .given({ [organisationStream('org_1')]: [organisationCreated] })
      .when((deps) => changeOrganisationSettings(deps, specCaller, org, { name: 'Acme', paymentTermsDays: 30 }))
      .then({ [organisationStream('org_1')]: [{ type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { paymentTermsDays: 30 } } }] });
  });

  it('decides on a state the request already holds, and after a conflict on what changed since, never on the stale state', async () => {
    await handlerSpec()
      .given({ [organisationStream('org_1')]: [organisationCreated] })
      .when(async (deps) => {
        const loaded = await organisationCommand.load(deps.store, 'org_1');
        // Another request renames the organisation after this one loaded it.
        await changeOrganisationSettings(deps, specCaller, org, { name: 'Zenith Ltd' });
        // Decided on the loaded state the rename is a change; the append conflicts, the retry reads the rename and decides nothing.
        const handled = await organisationCommand(deps, 'org_1', { type: 'ChangeOrganisationSettings', changes: { name: 'Zenith Ltd' } }, specCaller, org, undefined, loaded);
        expect(handled).toMatchObject({ events: [], revision: 1 });
      })
      .then({ [organisationStream('org_1')]: [{ type: 'OrganisationSettingsChanged', data: { organisationId: 'org_1', changes: { name: 'Zenith Ltd' } } }] });
  });

  it('opens a sandbox on the live stream, then creates it under the derived id', async () => {
    const sandboxId = derivedId('organisation', 'org_1', 'sandbox');
    await handlerSpec()
      .given({ [organisationStream('org_1')]: [organisationCreated] })
      .when((deps) => openSandbox(deps, specCaller, org, noCopy))
      .then({
        [organisationStream('org_1')]: [{ type: 'SandboxOpened', data: { organisationId: 'org_1', sandboxId, copy: noCopy } }],
        [organisationStream(sandboxId)]: [
          {
            type: 'OrganisationCreated',
            data: {
              organisationId: sandboxId,
              livemode: false,
              liveOrganisationId: 'org_1',
              settings: { ...settings, canCreateAccountingContacts: false },
            },
          },
        ],
      });
  });

  it('defines a meter once per code', async () => {
    const meterId = meterIdFor('org_1', 0, 'api');
    const defined = { type: 'MeterDefined', data: { meterId, organisationId: 'org_1', code: 'api', name: 'API calls', unitLabels: { singular: null, plural: null } } };
    const define = handlerSpec().given({}).when((deps) => defineMeter(deps, specCaller, org, { code: 'api', name: 'API calls', unitLabels: { singular: null, plural: null } }));
    await define.then({ [meterStream(meterId)]: [defined] });
    await handlerSpec()
      .given({ [meterStream(meterId)]: [defined] })
      .when((deps) => defineMeter(deps, specCaller, org, { code: 'api', name: 'Again', unitLabels: { singular: null, plural: null } }))
      .thenRefuses('meter_exists', 'code');
  });

  const planInput: PlanInput = {
    code: 'usage',
    name: 'Usage',
    type: 'no_base_fee',
    interval: { unit: 'month', count: 1 },
    currency: 'GBP',
    price: '0.0000',
    minimumUnits: 0,
    freeUnits: 0,
    unitLabels: { singular: null, plural: null },
    allowsPriceOverride: false,
    status: 'active',
    tiers: [],
    meters: [{ meterCode: 'api', pricingModel: 'per_unit', price: '0.0100', includedUnits: 0, minimumUnits: 0, tiers: [] }],
  };

  it('creates a plan with its meters resolved from their streams, and refuses an unknown meter', async () => {
    const meterId = meterIdFor('org_1', 0, 'api');
    const planId = planIdFor('org_1', 0, 'usage');
    await handlerSpec()
      .given({ [meterStream(meterId)]: [{ type: 'MeterDefined', data: { meterId, organisationId: 'org_1', code: 'api', name: 'API calls', unitLabels: { singular: 'call', plural: 'calls' } } }] })
      .when((deps) => createPlan(deps, specCaller, org, planInput))
      .then({
        [planStream(planId)]: [
          {
            type: 'PlanCreated',
            data: {
              ...planInput,
              planId,
              organisationId: 'org_1',
              meters: [{ ...planInput.meters[0], meterId, name: 'API calls', unitLabels: { singular: 'call', plural: 'calls' } }],
            },
          },
        ],
      });
    await handlerSpec().given({}).when((deps) => createPlan(deps, specCaller, org, planInput)).thenRefuses('invalid_parameter', 'meters.0.meter_code');
  });

  it('creates a charge and updates a plan of the same organisation only', async () => {
    const chargeId = derivedId('charge', 'org_1', 'setup');
    const charge = { code: 'setup', name: 'Setup', description: null, currency: 'GBP', price: '50.0000', allowsPriceOverride: false, status: 'active' as const };
    await handlerSpec()
      .given({})
      .when((deps) => createCharge(deps, specCaller, org, charge))
      .then({ [chargeStream(chargeId)]: [{ type: 'ChargeCreated', data: { ...charge, chargeId, organisationId: 'org_1' } }] });
    const planId = planIdFor('org_1', 0, 'flat');
    const created = { type: 'PlanCreated', data: { ...planInput, type: 'flat_fee', code: 'flat', planId, organisationId: 'org_1', meters: [] } };
    await handlerSpec()
      .given({ [planStream(planId)]: [created] })
      .when((deps) => updatePlan(deps, specCaller, org, planId, { status: 'legacy' }))
      .then({ [planStream(planId)]: [{ type: 'PlanUpdated', data: { planId, organisationId: 'org_1', changes: { status: 'legacy' } } }] });
    await handlerSpec()
      .given({ [planStream(planId)]: [created] })
      .when((deps) => updatePlan(deps, specCaller, { id: 'org_2', livemode: true }, planId, { status: 'legacy' }))
      .thenRefuses('plan_not_found');
  });

  it('updates a customer and revokes an API key', async () => {
    const customerId = customerIdFor('org_1', 0, 'C1');
    await handlerSpec()
      .given({
        [customerStream(customerId)]: [
          {
            type: 'CustomerImported',
            data: { customerId, organisationId: 'org_1', code: 'C1', name: 'Ada', firstName: null, lastName: null, email: null, accountingContactId: 'ct_1', source: 'admin_import' },
          },
        ],
      })
      .when((deps) => updateCustomer(deps, specCaller, org, customerId, { status: 'inactive', name: 'Ada' }))
      .then({ [customerStream(customerId)]: [{ type: 'CustomerUpdated', data: { customerId, organisationId: 'org_1', changes: { status: 'inactive' } } }] });
    await handlerSpec()
      .given({
        [apiKeyStream('key_1')]: [
          { type: 'ApiKeyCreated', data: { apiKeyId: 'key_1', organisationId: 'org_1', livemode: true, name: 'CI', scopes: [], expiresAt: null, secretHash: 'h', last4: 'abcd' } },
        ],
      })
      .when((deps) => revokeApiKey(deps, specCaller, org, 'key_1'))
      .then({ [apiKeyStream('key_1')]: [{ type: 'ApiKeyRevoked', data: { apiKeyId: 'key_1', organisationId: 'org_1' } }] });
  });

  describe('create subscription', () => {
    const planId = planIdFor('org_1', 0, 'flat');
    const customerId = customerIdFor('org_1', 0, 'C1');
    const given = (setupMode: boolean, more: DomainEvent[] = []) => ({
      [organisationStream('org_1')]: [{ ...organisationCreated, data: { ...organisationCreated.data, settings: { ...settings, setupMode } } }, ...more],
      [planStream(planId)]: [{ type: 'PlanCreated', data: { ...planInput, type: 'flat_fee', price: '99.0000', code: 'flat', planId, organisationId: 'org_1', meters: [] } }],
      [customerStream(customerId)]: [
        {
          type: 'CustomerImported',
          data: { customerId, organisationId: 'org_1', code: 'C1', name: 'Ada', firstName: null, lastName: null, email: null, accountingContactId: 'ct_1', source: 'admin_import' },
        },
      ],
    });
    const request = { units: null, discountPercent: '0.00', invoiceReference: null, startDate: null, flatFeePrice: null, minimumUnits: null, meters: [], endAfterCycles: null, label: null, cpiEnabled: false };
    const create = (deps: Parameters<typeof createSubscription>[0] extends infer D ? Omit<D, 'accounting'> : never) =>
      createSubscription({ ...deps, accounting: noAccounting }, specCaller, { organisationId: 'org_1', apiKeyId: 'key_1', idempotencyKey: 'k1', requestFingerprint: 'fp_1' }, {
        customerCode: 'C1',
        createCustomer: null,
        planCode: 'flat',
        charges: [],
        request,
      });
    const subscriptionId = derivedId('subscription', 'key_1', 'k1');

    it('records the subscription in Setup Mode, raising no invoice', async () => {
      await handlerSpec({ now: '2026-03-15T12:00:00.000Z' })
        .given(given(true))
        .when(create)
        .then({
          [subscriptionStream(subscriptionId)]: [
            {
              type: 'SubscriptionCreated',
              data: expect.objectContaining({ subscriptionId, customerId, planId, status: 'active', startDate: '2026-03-15', renewalDate: '2026-04-15', firstInvoiceId: null }),
            },
          ],
        });
    });

    it('refuses past the plan limit with what the lookups count, appending nothing', async () => {
      const limits = { type: 'PlanLimitsSet', data: { organisationId: 'org_1', customers: null, subscriptions: 3 } };
      await handlerSpec({ lookups: { liveSubscriptionCount: 3 } }).given(given(true, [limits])).when(create).thenRefuses('plan_limit_reached');
    });
  });
});
