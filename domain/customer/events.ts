import { z } from 'zod';
import type { EventDefinition } from '../shared/event-definition';

const contact = {
  name: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
};

const imported = z.object({
  customerId: z.string(),
  organisationId: z.string(),
  code: z.string().nullable(),
  ...contact,
  accountingContactId: z.string().nullable(),
  /** The accounting organisation holding that contact (absent from imports recorded before it was kept). */
  tenantId: z.string().optional(),
  /**
   * How it arrived: imported by an operator, adopted from an existing contact, created with a new
   * contact, or copied into a sandbox from its live organisation (names, email and code, no contact).
   */
  source: z.enum(['admin_import', 'adopted_contact', 'created_contact', 'sandbox_copy']),
});

const updated = z.object({
  customerId: z.string(),
  organisationId: z.string(),
  changes: z.object({ status: z.enum(['active', 'inactive']), name: z.string().nullable(), email: z.string().nullable() }).partial(),
});

/**
 * A customer got its contact in the accounting organisation in use on its first document there: one
 * copied into a sandbox, or any after the organisation moved to another accounting organisation.
 */
const contactLinked = z.object({ customerId: z.string(), organisationId: z.string(), accountingContactId: z.string(), tenantId: z.string().optional() });

export type CustomerImported = { type: 'CustomerImported'; data: z.infer<typeof imported> };
export type CustomerUpdated = { type: 'CustomerUpdated'; data: z.infer<typeof updated> };
export type CustomerContactLinked = { type: 'CustomerContactLinked'; data: z.infer<typeof contactLinked> };
export type CustomerEvent = CustomerImported | CustomerUpdated | CustomerContactLinked;

export const customerEventDefinitions: EventDefinition[] = [
  { type: 'CustomerImported', version: 1, schema: imported },
  { type: 'CustomerUpdated', version: 1, schema: updated },
  { type: 'CustomerContactLinked', version: 1, schema: contactLinked },
];

export const customerStream = (customerId: string): string => `customer-${customerId}`;
