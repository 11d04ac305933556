import { createApiKey } from '../commands/api-key/create-api-key';
import type { CommandDeps } from '../commands/deps';
import type { Caller } from '../commands/metadata';
import { createOrganisation } from '../commands/organisation/create-organisation';
import { openSandbox } from '../commands/organisation/open-sandbox';
import { SCOPES } from '../domain/api-key/scopes';
import { DEFAULT_SETTINGS } from '../domain/organisation/settings';
import { newId } from './ids';

export type QuickStart = Readonly<{ organisationId: string; sandboxId: string; apiKey: string; position: bigint }>;

/**
 * On the very first start (an empty log) makes a demo organisation with its sandbox and a sandbox
 * API key holding every scope, so a newcomer can call the API at once.
 */
export const quickStart = async (deps: CommandDeps): Promise<QuickStart | null> => {
  if ((await deps.store.headPosition()) !== 0n) return null;
  const caller: Caller = { actor: { type: 'system' }, requestId: null };
  const organisationId = newId('organisation');
  await createOrganisation(deps, caller, {
    organisationId,
    livemode: true,
    liveOrganisationId: null,
    settings: {
      ...DEFAULT_SETTINGS,
      name: 'Demo Organisation',
      timezone: 'Europe/London',
      defaultCurrency: 'GBP',
      canCreateAccountingContacts: true,
    },
  });
  const { state } = await openSandbox(deps, caller, { id: organisationId, livemode: true }, {
    settings: true,
    catalogue: true,
    customers: false,
    subscriptions: false,
  });
  if (state.status !== 'open') throw new Error('quick start: the sandbox was not opened');
  const { key, position } = await createApiKey(deps, caller, { id: state.organisationId, livemode: false }, {
    name: 'Quick start',
    scopes: [...SCOPES],
    expiresAt: null,
  });
  return { organisationId, sandboxId: state.organisationId, apiKey: key, position };
};

export const quickStartBanner = (url: string, demo: QuickStart): string => `
Quick start: a demo organisation (${demo.organisationId}) and its sandbox (${demo.sandboxId}) are ready.
Sandbox API key with every scope (shown once):
  ${demo.apiKey}

  curl -s ${url}/v1/organisation -H "Authorization: Bearer ${demo.apiKey}"

`;
