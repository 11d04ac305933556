import { z } from 'zod';

/** A non-negative amount sent as a decimal string with at most 4 places (answered with exactly 4: `projections/read-models/amount.ts`). */
export const amountInput = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,4})?$/, 'must be a decimal string with at most 4 decimal places, e.g. "12.50"')
  .transform((text) => {
    const [whole = '0', fraction = ''] = text.split('.');
    return `${BigInt(whole).toString()}.${fraction.padEnd(4, '0')}`;
  });
