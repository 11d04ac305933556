import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';
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

export type PlanLimits = Omit<z.infer<typeof planLimitsSet>, 'organisationId'>;

export const organisationEvents = defineEvents({
  OrganisationCreated: created,
  OrganisationSettingsChanged: settingsChanged,
  SandboxOpened: sandboxOpened,
  SandboxResetRequested: sandboxResetRequested,
  SandboxReset: sandboxReset,
  AccountingConnected: accountingConnected,
  AccountingDisconnected: accountingDisconnected,
  AccountsMapped: accountsMapped,
  PlanLimitsSet: planLimitsSet,
  CpiRecorded: cpiRecorded,
  TestClockAdvanced: testClockAdvanced,
});
export type OrganisationEvent<Type extends keyof typeof organisationEvents = keyof typeof organisationEvents> = EventOf<typeof organisationEvents, Type>;

export const organisationStream = (organisationId: string): string => `organisation-${organisationId}`;
