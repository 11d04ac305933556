import { z } from 'zod';
import { amount, CATALOGUE_STATUSES } from '../catalogue/types';
import type { EventDefinition } from '../shared/event-definition';

export const chargeSchema = z.object({
  chargeId: z.string(),
  organisationId: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  currency: z.string(),
  price: amount,
  allowsPriceOverride: z.boolean(),
  status: z.enum(CATALOGUE_STATUSES),
});

export type ChargeDefinition = z.infer<typeof chargeSchema>;
export type ChargeCreated = { type: 'ChargeCreated'; data: ChargeDefinition };
export type ChargeEvent = ChargeCreated;

export const chargeEventDefinitions: EventDefinition[] = [{ type: 'ChargeCreated', version: 1, schema: chargeSchema }];

export const chargeStream = (chargeId: string): string => `charge-${chargeId}`;
