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

export type OrganisationCreated = { type: 'OrganisationCreated'; data: z.infer<typeof created> };
export type OrganisationSettingsChanged = {
  type: 'OrganisationSettingsChanged';
  data: z.infer<typeof settingsChanged>;
};
export type SandboxOpened = { type: 'SandboxOpened'; data: z.infer<typeof sandboxOpened> };
export type OrganisationEvent = OrganisationCreated | OrganisationSettingsChanged | SandboxOpened;

export const organisationEventDefinitions: EventDefinition[] = [
  { type: 'OrganisationCreated', version: 1, schema: created },
  { type: 'OrganisationSettingsChanged', version: 1, schema: settingsChanged },
  { type: 'SandboxOpened', version: 1, schema: sandboxOpened },
];

export const organisationStream = (organisationId: string): string => `organisation-${organisationId}`;
