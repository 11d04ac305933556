import { DomainError } from '../shared/domain-error';
import type { OpenOrganisation, OrganisationState } from './state';

/** The rules several operations share about the organisation they act for; each error code has its home here. */

/**
 * What ids derived inside an organisation add after a sandbox reset: the generation, so a code,
 * Idempotency-Key or event id used before the reset names a new object. Nothing before the first
 * reset (and so never in a live organisation): those ids are as they always were.
 */
export const resetScope = (resetGeneration: number): string[] => (resetGeneration === 0 ? [] : [`reset-${resetGeneration}`]);

/** Whose an object is: its organisation, and the sandbox generation it was made in (absent: before any reset). */
export type ObjectOwner = Readonly<{ organisationId: string; resetGeneration?: number | undefined }>;

/** An object is the organisation's until a sandbox reset removes it: made by this organisation since the last reset. */
export const ownedNow = (object: ObjectOwner, organisation: Readonly<{ organisationId: string; resetGeneration: number }>): boolean =>
  object.organisationId === organisation.organisationId && (object.resetGeneration ?? 0) === organisation.resetGeneration;

export const requireOpen = (state: OrganisationState): OpenOrganisation => {
  if (state.status !== 'open') throw new DomainError('not_found', 'organisation_not_found', 'No such organisation.', 'org');
  return state;
};

export const requireAccountingConnected = (organisation: OpenOrganisation, message = 'The organisation is not connected to the accounting system.') => {
  if (!organisation.accounting) throw new DomainError('conflict', 'accounting_not_connected', message);
  return organisation.accounting;
};

/** Invoices go to the revenue account, usage lines to the usage revenue account once any meter exists. */
export const requireAccountsMapped = (organisation: OpenOrganisation, metersDefined: boolean): void => {
  const accounting = organisation.accounting;
  if (!accounting) return;
  if (!accounting.revenueAccount) {
    throw new DomainError('conflict', 'accounting_accounts_not_mapped', 'Map the revenue account before raising invoices.');
  }
  if (metersDefined && !accounting.usageRevenueAccount) {
    throw new DomainError('conflict', 'accounting_accounts_not_mapped', 'Meters are defined: map the usage revenue account too.');
  }
};

/** The cap a live organisation's own plan puts on its customers or live subscriptions; null where there is none (a sandbox is never counted). */
export const planLimit = (organisation: OpenOrganisation, what: 'customers' | 'subscriptions'): number | null => (organisation.livemode ? organisation.planLimits[what] : null);

export const requireWithinPlanLimit = (organisation: OpenOrganisation, what: 'customers' | 'subscriptions', current: number): void => {
  const limit = planLimit(organisation, what);
  if (limit !== null && current >= limit) throw new DomainError('permission', 'plan_limit_reached', `The organisation's plan allows ${limit} ${what}.`);
};

export const requireContactCreationAllowed = (organisation: OpenOrganisation): void => {
  if (!organisation.settings.canCreateAccountingContacts) {
    throw new DomainError('permission', 'accounting_contact_creation_disabled', 'The organisation has not allowed the API to create customers.');
  }
};

/** Setup Mode exists only in live organisations: a sandbox always raises invoices. */
export const inSetupMode = (organisation: OpenOrganisation): boolean => organisation.livemode && organisation.settings.setupMode;
