import { connectAccounting } from '../commands/accounting/connect-accounting';
import { createApiKey } from '../commands/api-key/create-api-key';
import { createCharge } from '../commands/catalogue/create-charge';
import { createPlan, type PlanInput } from '../commands/catalogue/create-plan';
import { defineMeter } from '../commands/catalogue/define-meter';
import { importCustomer, type ImportDeps } from '../commands/customer/import-customer';
import type { Caller } from '../commands/plumbing/metadata';
import { createOrganisation } from '../commands/organisation/create-organisation';
import { openSandbox } from '../commands/sandbox/open-sandbox';
import { organisationCommand } from '../commands/plumbing/organisation-command';
import { SCOPES } from '../domain/api-key/scopes';
import { DEFAULT_SETTINGS } from '../domain/organisation/settings';
import { newId } from '../infra/ids';

export type QuickStart = Readonly<{ organisationId: string; sandboxId: string; apiKey: string; position: bigint }>;

const tiers = [
  { fromUnits: 1, toUnits: 10, price: '10.0000' },
  { fromUnits: 11, toUnits: 50, price: '8.0000' },
  { fromUnits: 51, toUnits: null, price: '6.0000' },
];
const monthly = { unit: 'month', count: 1 } as const;
const plan = (code: string, name: string, type: PlanInput['type'], extra: Partial<PlanInput> = {}): PlanInput => ({
  code,
  name,
  type,
  interval: monthly,
  currency: 'GBP',
  price: '0.0000',
  minimumUnits: 0,
  freeUnits: 0,
  unitLabels: { singular: 'seat', plural: 'seats' },
  allowsPriceOverride: false,
  status: 'active',
  tiers: [],
  meters: [],
  ...extra,
});

/** One plan of each type, a meter, a charge: enough to walk through the integration flow. */
const DEMO_PLANS: PlanInput[] = [
  plan('starter', 'Starter (flat fee)', 'flat_fee', { price: '29.0000', allowsPriceOverride: true, unitLabels: { singular: null, plural: null } }),
  plan('team', 'Team (per seat)', 'per_unit', { price: '12.0000', minimumUnits: 1 }),
  plan('growth', 'Growth (tiered)', 'tiered', { tiers }),
  plan('scale', 'Scale (volume)', 'volume', { tiers }),
  plan('bands', 'Bands (stairstep)', 'stairstep', { tiers }),
  plan('api', 'API (usage only)', 'no_base_fee', {
    unitLabels: { singular: null, plural: null },
    meters: [{ meterCode: 'api_calls', pricingModel: 'per_unit', price: '0.0020', includedUnits: 1000, minimumUnits: 0, tiers: [] }],
  }),
];

/**
 * On the very first start (an empty log) makes a demo organisation and its sandbox, connected to
 * the demonstration accounting system, with a small catalogue, a customer, and a sandbox API key
 * holding every scope, so a newcomer can call the API at once.
 */
export const quickStart = async (deps: ImportDeps): Promise<QuickStart | null> => {
  if ((await deps.store.headPosition()) !== 0n) return null;
  const caller: Caller = { actor: { type: 'system' }, requestId: null };
  const organisationId = newId('organisation');
  const name = 'Demo Organisation';
  await createOrganisation(deps, caller, {
    organisationId,
    livemode: true,
    liveOrganisationId: null,
    settings: { ...DEFAULT_SETTINGS, name, timezone: 'Europe/London', defaultCurrency: 'GBP', canCreateAccountingContacts: true },
  });
  const { state } = await openSandbox(deps, caller, { id: organisationId, livemode: true }, {
    settings: true,
    catalogue: true,
    customers: false,
    subscriptions: false,
  });
  if (state.status !== 'open') throw new Error('quick start: the sandbox was not opened');
  const sandbox = { id: state.organisationId, livemode: false, name };
  for (const organisation of [{ id: organisationId, livemode: true, name }, sandbox]) {
    await connectAccounting(deps, caller, organisation);
    await organisationCommand(deps, organisation.id, { type: 'MapAccounts', revenue: '200', usageRevenue: '270' }, caller, organisation);
  }
  await defineMeter(deps, caller, sandbox, { code: 'api_calls', name: 'API calls', unitLabels: { singular: 'call', plural: 'calls' } });
  for (const input of DEMO_PLANS) await createPlan(deps, caller, sandbox, input);
  await createCharge(deps, caller, sandbox, {
    code: 'onboarding',
    name: 'Onboarding',
    description: 'One-off onboarding session',
    currency: 'GBP',
    price: '150.0000',
    allowsPriceOverride: true,
    status: 'active',
  });
  await importCustomer(deps, caller, sandbox, { code: 'ACME', name: 'Acme Ltd', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@acme.example' }, { requester: 'operator' });
  const { key, position } = await createApiKey(deps, caller, sandbox, { name: 'Quick start', scopes: [...SCOPES], expiresAt: null });
  return { organisationId, sandboxId: sandbox.id, apiKey: key, position };
};

export const quickStartBanner = (url: string, demo: QuickStart): string => `
Quick start: a demo organisation (${demo.organisationId}) and its sandbox (${demo.sandboxId}) are ready,
connected to the demonstration accounting system, with six plans, a meter, a charge and a customer.
Sandbox API key with every scope (shown once):
  ${demo.apiKey}

  curl -s ${url}/v1/organisation -H "Authorization: Bearer ${demo.apiKey}"
  curl -s ${url}/v1/plans -H "Authorization: Bearer ${demo.apiKey}"

Console: ${url}/console (sign in with the admin token)

`;
