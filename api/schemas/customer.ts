import { z } from 'zod';
import type { CustomerInput } from '../../commands/customer/import-customer';
import { CUSTOMER_STATUSES, customerDocument } from '../../projections/read-models/customers';

/** 1 to 50 printable characters; no quotes, no backslashes, no space at either end. */
export const customerCode = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[\x20-\x7E]+$/, 'must be printable characters')
  .regex(/^[^"'\\]+$/, 'must not contain quotes or backslashes')
  .regex(/^\S(.*\S)?$/, 'must not start or end with a space');

/** The API document's email rule, exactly: dotted local part of letters, digits and _ ' + -; dotted domain ending in 2+ letters. */
export const EMAIL = /^[A-Za-z0-9_'+-]+(\.[A-Za-z0-9_'+-]+)*@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$/;

export const customerFields = {
  // A blank name is refused here, never sent on to be refused by the accounting system as a 502.
  name: z.string().min(1).max(255).regex(/\S/, 'must hold a non-space character'),
  first_name: z.string().max(255).nullable().optional(),
  last_name: z.string().max(255).nullable().optional(),
  email: z.string().max(255).regex(EMAIL, 'must be a valid email address').nullable().optional(),
};

export const createCustomerBody = z.strictObject({ code: customerCode, ...customerFields });

/** The customer's fields of a body (a create body, or a subscription's `create_customer`), as commands take them. */
export const toCustomerFields = (body: Omit<z.infer<typeof createCustomerBody>, 'code'>): Omit<CustomerInput, 'code'> => ({
  name: body.name,
  firstName: body.first_name ?? null,
  lastName: body.last_name ?? null,
  email: body.email ?? null,
});

export const toCustomerInput = (body: z.infer<typeof createCustomerBody>): CustomerInput => ({ code: body.code, ...toCustomerFields(body) });

export const updateCustomerBody = z.strictObject({
  status: z.enum(CUSTOMER_STATUSES).optional(),
  name: customerFields.name.optional(),
  email: customerFields.email,
});

export const customerObject = customerDocument.omit({ _organisation: true }).meta({ id: 'Customer' });
