import { z } from 'zod';
import type { CustomerEvent } from '../../domain/customer/events';
import type { Projection } from '../engine/projection';
import { listIndexes } from '../../infra/read-store/list-indexes';

export const CUSTOMERS = 'customers';

export const CUSTOMER_STATUSES = ['active', 'inactive'] as const;

/** The Customer object of the API document; `_`-prefixed fields are internal. */
export const customerDocument = z.object({
  id: z.string(),
  object: z.literal('customer'),
  code: z.string().nullable(),
  name: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(CUSTOMER_STATUSES),
  accounting_contact_id: z.string().nullable(),
  created: z.string(),
  _organisation: z.string(),
});
export type CustomerDoc = z.infer<typeof customerDocument>;

export const customersProjection: Projection<CustomerEvent> = {
  name: 'customers',
  version: 1,
  collections: [CUSTOMERS],
  // The list's filters (`email` is compared without regard to case, which no index serves); a customer is found by its code.
  indexes: listIndexes(CUSTOMERS, ['code', 'status']),
  handles: ['CustomerImported', 'CustomerUpdated', 'CustomerContactLinked'],
  apply: async (event, context) => {
    switch (event.type) {
      case 'CustomerImported': {
        const data = event.data;
        const doc: CustomerDoc = {
          id: data.customerId,
          object: 'customer',
          code: data.code,
          name: data.name,
          first_name: data.firstName,
          last_name: data.lastName,
          email: data.email,
          status: 'active',
          accounting_contact_id: data.accountingContactId,
          created: event.metadata.businessTime,
          _organisation: data.organisationId,
        };
        context.put(CUSTOMERS, doc);
        return;
      }
      case 'CustomerUpdated': {
        const doc = await context.get<CustomerDoc>(CUSTOMERS, event.data.customerId);
        if (doc) context.put(CUSTOMERS, { ...doc, ...event.data.changes });
        return;
      }
      case 'CustomerContactLinked': {
        const doc = await context.get<CustomerDoc>(CUSTOMERS, event.data.customerId);
        if (doc) context.put(CUSTOMERS, { ...doc, accounting_contact_id: event.data.accountingContactId });
        return;
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
};
