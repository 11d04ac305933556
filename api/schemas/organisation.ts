import { IANAZone } from 'luxon';
import { z } from 'zod';
import { DEFAULT_SETTINGS, type OrganisationSettings, UNIT_CHANGE_DOCUMENTS } from '../../domain/organisation/settings';
import { organisationDocument, SETTING_FIELDS } from '../../projections/read-models/organisations';

export const timezoneSchema = z
  .string()
  .refine((zone) => IANAZone.isValidZone(zone), 'must be an IANA timezone such as Europe/London');
export const currencySchema = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code such as EUR');
const days = z.number().int().min(0).max(365);

export const organisationSettingsFields = {
  name: z.string().min(1).max(255),
  timezone: timezoneSchema,
  default_currency: currencySchema,
  setup_mode: z.boolean(),
  can_create_accounting_contacts: z.boolean(),
  renewal_lead_days: days,
  usage_grace_days: days,
  payment_terms_days: days,
  unit_change_document: z.enum(UNIT_CHANGE_DOCUMENTS),
} satisfies Record<(typeof SETTING_FIELDS)[keyof OrganisationSettings], z.ZodType>;

export const createOrganisationBody = z.strictObject({
  ...organisationSettingsFields,
  setup_mode: organisationSettingsFields.setup_mode.optional(),
  can_create_accounting_contacts: organisationSettingsFields.can_create_accounting_contacts.optional(),
  renewal_lead_days: organisationSettingsFields.renewal_lead_days.optional(),
  usage_grace_days: organisationSettingsFields.usage_grace_days.optional(),
  payment_terms_days: organisationSettingsFields.payment_terms_days.optional(),
  unit_change_document: organisationSettingsFields.unit_change_document.optional(),
});

const planLimits = z
  .strictObject({
    customers: z.number().int().min(0).nullable().default(null),
    subscriptions: z.number().int().min(0).nullable().default(null),
  })
  .describe('Limits of the organisation’s own plan; null means none. A sandbox is never counted.');

export const updateOrganisationBody = z.strictObject({ ...organisationSettingsFields, plan_limits: planLimits }).partial();

type SettingsBody = Omit<z.infer<typeof updateOrganisationBody>, 'plan_limits'>;

/** The settings a body names (each under its document field's name); those it leaves out are absent. */
export const toOrganisationSettings = (body: SettingsBody): Partial<OrganisationSettings> => {
  const settings: Record<string, unknown> = {};
  for (const [setting, field] of Object.entries(SETTING_FIELDS)) if (body[field] !== undefined) settings[setting] = body[field];
  return settings;
};

/** A new organisation's settings: the body's, and the defaults for those it leaves out. */
export const toNewOrganisationSettings = (body: z.infer<typeof createOrganisationBody>): OrganisationSettings =>
  ({ ...DEFAULT_SETTINGS, ...toOrganisationSettings(body) }) as OrganisationSettings;

export const sandboxCopyBody = z.strictObject({
  copy: z
    .strictObject({
      settings: z.boolean().default(true),
      catalogue: z.boolean().default(true),
      customers: z.boolean().default(false),
      subscriptions: z.boolean().default(false),
    })
    .default({ settings: true, catalogue: true, customers: false, subscriptions: false }),
});

export const organisationObject = organisationDocument.meta({ id: 'Organisation' });
