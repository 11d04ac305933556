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
  created: string;
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
  handles: ['OrganisationCreated', 'OrganisationSettingsChanged', 'SandboxOpened'],
  apply: async (event: StoredEvent, context) => {
    const typed = event as unknown as OrganisationEvent;
    switch (typed.type) {
      case 'OrganisationCreated': {
        const { organisationId, livemode, liveOrganisationId, settings } = typed.data;
        context.put(ORGANISATIONS, {
          id: organisationId,
          object: 'organisation',
          ...(settingsFields(settings) as Omit<OrganisationDoc, 'id' | 'object' | 'livemode' | 'sandbox' | 'live_organisation' | 'created'>),
          livemode,
          sandbox: null,
          live_organisation: liveOrganisationId,
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
      default: {
        const exhaustive: never = typed;
        return exhaustive;
      }
    }
  },
};
