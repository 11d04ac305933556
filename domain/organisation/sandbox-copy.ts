import type { SandboxCopy } from './events';
import { DEFAULT_SETTINGS, type OrganisationSettings } from './settings';

/** Ticking an option ticks the ones it needs: subscriptions need customers and catalogue; catalogue needs settings. */
export const withNeeds = (copy: SandboxCopy): SandboxCopy => {
  const customers = copy.customers || copy.subscriptions;
  const catalogue = copy.catalogue || copy.subscriptions;
  return { settings: copy.settings || catalogue, catalogue, customers, subscriptions: copy.subscriptions };
};

/** The settings a reset keeps whatever is copied: the API settings (create accounting customers, changes after invoicing). */
const API_SETTINGS = ['canCreateAccountingContacts', 'unitChangeDocument'] as const satisfies readonly (keyof OrganisationSettings)[];

/**
 * A sandbox's settings copied from its live organisation: all of them with Setup Mode off (never on
 * in a sandbox); when copied again by a reset, the sandbox keeps its own API settings. Without the
 * settings option a new sandbox gets the defaults under the live name, timezone and currency.
 */
export const sandboxSettings = (live: OrganisationSettings, copy: SandboxCopy, sandbox?: OrganisationSettings): OrganisationSettings => {
  if (!withNeeds(copy).settings) {
    return sandbox ?? { ...DEFAULT_SETTINGS, name: live.name, timezone: live.timezone, defaultCurrency: live.defaultCurrency };
  }
  const kept = sandbox ? Object.fromEntries(API_SETTINGS.map((setting) => [setting, sandbox[setting]])) : {};
  return { ...live, setupMode: false, ...kept };
};
