import type { OrganisationEvent } from '../domain/organisation/events';
import type { OrganisationSettings } from '../domain/organisation/settings';
import type { StoredEvent } from '../infra/event-store/port';
import type { Projection } from './projection';

export const ORGANISATIONS = 'organisations';

/** The Organisation object as both APIs show it; `_`-prefixed fields are internal. */
export type OrganisationDoc = {
  id: string;
  object: 'organisation';
  name: string;
  timezone: string;
  default_currency: string | null;
  setup_mode: boolean;
  can_create_accounting_contacts: boolean;
  livemode: boolean;
  renewal_lead_days: number;
  usage_grace_days: number;
  payment_terms_days: number;
  unit_change_document: 'separate' | 'amend';
  sandbox: string | null;
  live_organisation: string | null;
  accounting: {
    connected: boolean;
    tenant_id: string | null;
    revenue_account: string | null;
    usage_revenue_account: string | null;
  };
  plan_limits: { customers: number | null; subscriptions: number | null };
  created: string;
};

const DISCONNECTED: OrganisationDoc['accounting'] = {
  connected: false,
  tenant_id: null,
  revenue_account: null,
  usage_revenue_account: null,
};

const settingsFields = (settings: Partial<OrganisationSettings>): Partial<OrganisationDoc> => {
  const fields: Partial<OrganisationDoc> = {};
  if (settings.name !== undefined) fields.name = settings.name;
  if (settings.timezone !== undefined) fields.timezone = settings.timezone;
  if (settings.defaultCurrency !== undefined) fields.default_currency = settings.defaultCurrency;
  if (settings.setupMode !== undefined) fields.setup_mode = settings.setupMode;
  if (settings.canCreateAccountingContacts !== undefined)
    fields.can_create_accounting_contacts = settings.canCreateAccountingContacts;
  if (settings.renewalLeadDays !== undefined) fields.renewal_lead_days = settings.renewalLeadDays;
  if (settings.usageGraceDays !== undefined) fields.usage_grace_days = settings.usageGraceDays;
  if (settings.paymentTermsDays !== undefined) fields.payment_terms_days = settings.paymentTermsDays;
  if (settings.unitChangeDocument !== undefined) fields.unit_change_document = settings.unitChangeDocument;
  return fields;
};

export const organisationsProjection: Projection = {
  name: 'organisations',
  version: 1,
  collections: [ORGANISATIONS],
  indexes: [],
  handles: [
    'OrganisationCreated',
    'OrganisationSettingsChanged',
    'SandboxOpened',
    'AccountingConnected',
    'AccountingDisconnected',
    'AccountsMapped',
    'PlanLimitsSet',
  ],
  apply: async (event: StoredEvent, context) => {
    const typed = event as unknown as OrganisationEvent;
    switch (typed.type) {
      case 'OrganisationCreated': {
        const { organisationId, livemode, liveOrganisationId, settings } = typed.data;
        context.put(ORGANISATIONS, {
          id: organisationId,
          object: 'organisation',
          ...(settingsFields(settings) as Pick<OrganisationDoc, 'name' | 'timezone' | 'default_currency' | 'setup_mode' | 'can_create_accounting_contacts' | 'renewal_lead_days' | 'usage_grace_days' | 'payment_terms_days' | 'unit_change_document'>),
          livemode,
          sandbox: null,
          live_organisation: liveOrganisationId,
          accounting: DISCONNECTED,
          plan_limits: { customers: null, subscriptions: null },
          created: event.metadata.businessTime,
        });
        return;
      }
      case 'OrganisationSettingsChanged': {
        const doc = await context.get<OrganisationDoc>(ORGANISATIONS, typed.data.organisationId);
        if (doc) context.put(ORGANISATIONS, { ...doc, ...settingsFields(typed.data.changes) });
        return;
      }
      case 'SandboxOpened': {
        const doc = await context.get<OrganisationDoc>(ORGANISATIONS, typed.data.organisationId);
        if (doc) context.put(ORGANISATIONS, { ...doc, sandbox: typed.data.sandboxId });
        return;
      }
      case 'SandboxResetRequested':
        return;
      case 'AccountingConnected':
      case 'AccountingDisconnected':
      case 'AccountsMapped':
      case 'PlanLimitsSet': {
        const doc = await context.get<OrganisationDoc>(ORGANISATIONS, typed.data.organisationId);
        if (!doc) return;
        if (typed.type === 'AccountingConnected') {
          doc.accounting = { ...DISCONNECTED, connected: true, tenant_id: typed.data.tenantId };
        } else if (typed.type === 'AccountingDisconnected') {
          doc.accounting = DISCONNECTED;
        } else if (typed.type === 'AccountsMapped') {
          doc.accounting = { ...doc.accounting, revenue_account: typed.data.revenue, usage_revenue_account: typed.data.usageRevenue };
        } else {
          doc.plan_limits = { customers: typed.data.customers, subscriptions: typed.data.subscriptions };
        }
        context.put(ORGANISATIONS, doc);
        return;
      }
      default: {
        const exhaustive: never = typed;
        return exhaustive;
      }
    }
  },
};
