import { z } from 'zod';
import { defineEvents, type EventOf } from '../shared/define-events';

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

export const customerEvents = defineEvents({
  CustomerImported: imported,
  CustomerUpdated: updated,
  CustomerContactLinked: contactLinked,
});
export type CustomerEvent<Type extends keyof typeof customerEvents = keyof typeof customerEvents> = EventOf<typeof customerEvents, Type>;

export const customerStream = (customerId: string): string => `customer-${customerId}`;
