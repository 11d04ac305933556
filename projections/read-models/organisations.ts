import { z } from 'zod';
import type { OrganisationEvent } from '../../domain/organisation/events';
import { type OrganisationSettings, UNIT_CHANGE_DOCUMENTS } from '../../domain/organisation/settings';
import type { Projection } from '../engine/projection';

export const ORGANISATIONS = 'organisations';

/** The Organisation object as the admin API shows it (the public API shows part of it). */
export const organisationDocument = z.object({
  id: z.string(),
  object: z.literal('organisation'),
  name: z.string(),
  timezone: z.string(),
  default_currency: z.string().nullable(),
  setup_mode: z.boolean(),
  can_create_accounting_contacts: z.boolean(),
  livemode: z.boolean(),
  renewal_lead_days: z.number().int(),
  usage_grace_days: z.number().int(),
  payment_terms_days: z.number().int(),
  unit_change_document: z.enum(UNIT_CHANGE_DOCUMENTS),
  sandbox: z.string().nullable(),
  live_organisation: z.string().nullable(),
  accounting: z.object({
    connected: z.boolean(),
    tenant_id: z.string().nullable(),
    revenue_account: z.string().nullable(),
    usage_revenue_account: z.string().nullable(),
  }),
  plan_limits: z.object({ customers: z.number().int().nullable(), subscriptions: z.number().int().nullable() }),
  created: z.string(),
});
export type OrganisationDoc = z.infer<typeof organisationDocument>;

/** Per reset sandbox, how many times it was reset (none for one never reset): what scopes its idempotency records. */
export const SANDBOX_GENERATIONS = 'sandbox_generations';
export const sandboxGenerationDocument = z.object({ id: z.string(), generation: z.number().int().positive() });
export type SandboxGenerationDoc = z.infer<typeof sandboxGenerationDocument>;

/** The field that shows each setting, in the document and in the admin API's request bodies. */
export const SETTING_FIELDS = {
  name: 'name',
  timezone: 'timezone',
  defaultCurrency: 'default_currency',
  setupMode: 'setup_mode',
  canCreateAccountingContacts: 'can_create_accounting_contacts',
  renewalLeadDays: 'renewal_lead_days',
  usageGraceDays: 'usage_grace_days',
  paymentTermsDays: 'payment_terms_days',
  unitChangeDocument: 'unit_change_document',
} as const satisfies { [Setting in keyof OrganisationSettings]: keyof OrganisationDoc };

type SettingField = (typeof SETTING_FIELDS)[keyof OrganisationSettings];

const DISCONNECTED: OrganisationDoc['accounting'] = {
  connected: false,
  tenant_id: null,
  revenue_account: null,
  usage_revenue_account: null,
};

const settingsFields = (settings: Partial<OrganisationSettings>): Partial<Pick<OrganisationDoc, SettingField>> => {
  const fields: Record<string, unknown> = {};
  for (const [setting, field] of Object.entries(SETTING_FIELDS)) {
    const value = settings[setting as keyof OrganisationSettings];
    if (value !== undefined) fields[field] = value;
  }
  return fields;
};

export const organisationsProjection: Projection<OrganisationEvent> = {
  name: 'organisations',
  version: 2,
  collections: [ORGANISATIONS, SANDBOX_GENERATIONS],
  indexes: [],
  handles: [
    'OrganisationCreated',
    'OrganisationSettingsChanged',
    'SandboxOpened',
    'SandboxReset',
    'AccountingConnected',
    'AccountingDisconnected',
    'AccountsMapped',
    'PlanLimitsSet',
  ],
  apply: async (event, context) => {
    switch (event.type) {
      case 'OrganisationCreated': {
        const { organisationId, livemode, liveOrganisationId, settings } = event.data;
        const doc: OrganisationDoc = {
          id: organisationId,
          object: 'organisation',
          ...(settingsFields(settings) as Pick<OrganisationDoc, SettingField>),
          livemode,
          sandbox: null,
          live_organisation: liveOrganisationId,
          accounting: DISCONNECTED,
          plan_limits: { customers: null, subscriptions: null },
          created: event.metadata.businessTime,
        };
        context.put(ORGANISATIONS, doc);
        return;
      }
      case 'OrganisationSettingsChanged': {
        const doc = await context.get<OrganisationDoc>(ORGANISATIONS, event.data.organisationId);
        if (doc) context.put(ORGANISATIONS, { ...doc, ...settingsFields(event.data.changes) });
        return;
      }
      case 'SandboxOpened': {
        const doc = await context.get<OrganisationDoc>(ORGANISATIONS, event.data.organisationId);
        if (doc) context.put(ORGANISATIONS, { ...doc, sandbox: event.data.sandboxId });
        return;
      }
      case 'SandboxReset': {
        const doc: SandboxGenerationDoc = { id: event.data.organisationId, generation: event.data.generation };
        context.put(SANDBOX_GENERATIONS, doc);
        return;
      }
      case 'SandboxResetRequested':
      case 'CpiRecorded':
      case 'TestClockAdvanced':
        return;
      case 'AccountingConnected':
      case 'AccountingDisconnected':
      case 'AccountsMapped':
      case 'PlanLimitsSet': {
        const doc = await context.get<OrganisationDoc>(ORGANISATIONS, event.data.organisationId);
        if (!doc) return;
        const changed: Partial<OrganisationDoc> =
          event.type === 'AccountingConnected'
            ? { accounting: { ...DISCONNECTED, connected: true, tenant_id: event.data.tenantId } }
            : event.type === 'AccountingDisconnected'
              ? { accounting: DISCONNECTED }
              : event.type === 'AccountsMapped'
                ? { accounting: { ...doc.accounting, revenue_account: event.data.revenue, usage_revenue_account: event.data.usageRevenue } }
                : { plan_limits: { customers: event.data.customers, subscriptions: event.data.subscriptions } };
        context.put(ORGANISATIONS, { ...doc, ...changed });
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
};
