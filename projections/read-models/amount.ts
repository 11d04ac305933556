import { z } from 'zod';

/** How a read-model document (and so the API) shows an amount: a decimal string with exactly four places. */
export const amountOutput = z.string().describe('Decimal string with four places, e.g. "12.5000"');
