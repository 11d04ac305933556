import { z } from 'zod';

export const UNIT_CHANGE_DOCUMENTS = ['separate', 'amend'] as const;

export const organisationSettingsSchema = z.object({
  name: z.string(),
  timezone: z.string(),
  defaultCurrency: z.string().nullable(),
  setupMode: z.boolean(),
  canCreateAccountingContacts: z.boolean(),
  renewalLeadDays: z.number().int(),
  usageGraceDays: z.number().int(),
  paymentTermsDays: z.number().int(),
  unitChangeDocument: z.enum(UNIT_CHANGE_DOCUMENTS),
});

export type OrganisationSettings = z.infer<typeof organisationSettingsSchema>;

export const DEFAULT_SETTINGS = {
  setupMode: false,
  canCreateAccountingContacts: false,
  renewalLeadDays: 7,
  usageGraceDays: 1,
  paymentTermsDays: 14,
  unitChangeDocument: 'separate',
} as const satisfies Partial<OrganisationSettings>;
