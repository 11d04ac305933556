import { z } from 'zod';
import { amount, CATALOGUE_STATUSES } from '../catalogue/types';
import { defineEvents, type EventOf } from '../shared/define-events';

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

export const chargeEvents = defineEvents({
  ChargeCreated: chargeSchema,
});
export type ChargeEvent<Type extends keyof typeof chargeEvents = keyof typeof chargeEvents> = EventOf<typeof chargeEvents, Type>;

export const chargeStream = (chargeId: string): string => `charge-${chargeId}`;
