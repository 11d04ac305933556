import { z } from 'zod';
import type { EventDefinition } from '../shared/event-definition';
import { organisationSettingsSchema } from './settings';

const created = z.object({
  organisationId: z.string(),
  livemode: z.boolean(),
  /** The live organisation a sandbox belongs to; null for a live organisation. */
  liveOrganisationId: z.string().nullable(),
  settings: organisationSettingsSchema,
});

const settingsChanged = z.object({
  organisationId: z.string(),
  changes: organisationSettingsSchema.partial(),
});

export const sandboxCopySchema = z.object({
  settings: z.boolean(),
  catalogue: z.boolean(),
  customers: z.boolean(),
  subscriptions: z.boolean(),
});
export type SandboxCopy = z.infer<typeof sandboxCopySchema>;

const sandboxOpened = z.object({ organisationId: z.string(), sandboxId: z.string(), copy: sandboxCopySchema });
/** Recorded by earlier versions, which emptied nothing: kept readable, it changes no state. */
const sandboxResetRequested = z.object({ organisationId: z.string(), copy: sandboxCopySchema });
/**
 * The sandbox emptied: every read model drops what it held for it (customers, subscriptions,
 * invoices, credit notes, catalogue, reported usage), and ids derived inside it from then on include
 * the generation, so a code, Idempotency-Key or event id used before names a new object. The
 * removed objects' streams stay in the log, their history readable.
 */
const sandboxReset = z.object({ organisationId: z.string(), generation: z.number().int().min(1), copy: sandboxCopySchema });

const accountSchema = z.object({ code: z.string(), name: z.string(), type: z.enum(['revenue', 'expense', 'asset']) });

const accountingConnected = z.object({
  organisationId: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  accounts: z.array(accountSchema),
});
const accountingDisconnected = z.object({ organisationId: z.string(), tenantId: z.string() });
const accountsMapped = z.object({ organisationId: z.string(), revenue: z.string(), usageRevenue: z.string().nullable() });
const planLimitsSet = z.object({
  organisationId: z.string(),
  customers: z.number().int().nullable(),
  subscriptions: z.number().int().nullable(),
});

/** The CPI percentage of a year (e.g. '3.50'); recording a year again replaces it. */
const cpiRecorded = z.object({ organisationId: z.string(), year: z.number().int(), percent: z.string() });
/** A sandbox's test clock was advanced: it stands at frozenTime until advanced again or the sandbox is reset. */
const testClockAdvanced = z.object({ organisationId: z.string(), frozenTime: z.string() });

export type CpiRecorded = { type: 'CpiRecorded'; data: z.infer<typeof cpiRecorded> };
export type TestClockAdvanced = { type: 'TestClockAdvanced'; data: z.infer<typeof testClockAdvanced> };

export type AccountingConnected = { type: 'AccountingConnected'; data: z.infer<typeof accountingConnected> };
export type AccountingDisconnected = { type: 'AccountingDisconnected'; data: z.infer<typeof accountingDisconnected> };
export type AccountsMapped = { type: 'AccountsMapped'; data: z.infer<typeof accountsMapped> };
export type PlanLimitsSet = { type: 'PlanLimitsSet'; data: z.infer<typeof planLimitsSet> };
export type PlanLimits = Omit<PlanLimitsSet['data'], 'organisationId'>;

export type OrganisationCreated = { type: 'OrganisationCreated'; data: z.infer<typeof created> };
export type OrganisationSettingsChanged = {
  type: 'OrganisationSettingsChanged';
  data: z.infer<typeof settingsChanged>;
};
export type SandboxOpened = { type: 'SandboxOpened'; data: z.infer<typeof sandboxOpened> };
export type SandboxResetRequested = { type: 'SandboxResetRequested'; data: z.infer<typeof sandboxResetRequested> };
export type SandboxReset = { type: 'SandboxReset'; data: z.infer<typeof sandboxReset> };
export type OrganisationEvent =
  | OrganisationCreated
  | OrganisationSettingsChanged
  | SandboxOpened
  | SandboxResetRequested
  | SandboxReset
  | AccountingConnected
  | AccountingDisconnected
  | AccountsMapped
  | PlanLimitsSet
  | CpiRecorded
  | TestClockAdvanced;

export const organisationEventDefinitions: EventDefinition[] = [
  { type: 'OrganisationCreated', version: 1, schema: created },
  { type: 'OrganisationSettingsChanged', version: 1, schema: settingsChanged },
  { type: 'SandboxOpened', version: 1, schema: sandboxOpened },
  { type: 'SandboxResetRequested', version: 1, schema: sandboxResetRequested },
  { type: 'SandboxReset', version: 1, schema: sandboxReset },
  { type: 'AccountingConnected', version: 1, schema: accountingConnected },
  { type: 'AccountingDisconnected', version: 1, schema: accountingDisconnected },
  { type: 'AccountsMapped', version: 1, schema: accountsMapped },
  { type: 'PlanLimitsSet', version: 1, schema: planLimitsSet },
  { type: 'CpiRecorded', version: 1, schema: cpiRecorded },
  { type: 'TestClockAdvanced', version: 1, schema: testClockAdvanced },
];

export const organisationStream = (organisationId: string): string => `organisation-${organisationId}`;
