import type { OrganisationEvent, PlanLimits } from './events';
import type { OrganisationSettings } from './settings';

/** The accounting system an organisation is connected to, and the accounts its documents post to. */
export type AccountingConnection = Readonly<{
  tenantId: string;
  accounts: OrganisationEvent<'AccountingConnected'>['data']['accounts'];
  revenueAccount: string | null;
  usageRevenueAccount: string | null;
}>;

export type OpenOrganisation = {
  status: 'open';
  organisationId: string;
  livemode: boolean;
  liveOrganisationId: string | null;
  settings: OrganisationSettings;
  sandboxId: string | null;
  accounting: AccountingConnection | null;
  planLimits: PlanLimits;
  /** How many times this sandbox was reset (0 for a live organisation): ids derived inside it include it. */
  resetGeneration: number;
  /** CPI percentages by year, as recorded (the latest year's is the one renewals apply). */
  cpi: Readonly<Record<string, string>>;
  /** A sandbox's test clock: the instant it stands at, or null for real time. */
  testClock: string | null;
};

export type OrganisationState = { status: 'none' } | OpenOrganisation;
