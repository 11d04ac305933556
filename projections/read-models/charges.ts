import { z } from 'zod';
import { CATALOGUE_STATUSES } from '../../domain/catalogue/types';
import type { ChargeEvent } from '../../domain/charge/events';
import { amountOutput } from './amount';
import type { Projection } from '../engine/projection';

export const CHARGES = 'charges';

/** The Charge object of the API document; `_`-prefixed fields are internal. */
export const chargeDocument = z.object({
  id: z.string(),
  object: z.literal('charge'),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  currency: z.string(),
  price: amountOutput,
  allows_price_override: z.boolean(),
  status: z.enum(CATALOGUE_STATUSES),
  created: z.string(),
  _organisation: z.string(),
});
export type ChargeDoc = z.infer<typeof chargeDocument>;

export const chargesProjection: Projection<ChargeEvent> = {
  name: 'charges',
  version: 1,
  collections: [CHARGES],
  indexes: [
    { collection: CHARGES, fields: ['_organisation', 'created'] },
    { collection: CHARGES, fields: ['_organisation', 'code'] },
  ],
  handles: ['ChargeCreated'],
  apply: (event, context) => {
    const { data } = event;
    const doc: ChargeDoc = {
      id: data.chargeId,
      object: 'charge',
      code: data.code,
      name: data.name,
      description: data.description,
      currency: data.currency,
      price: data.price,
      allows_price_override: data.allowsPriceOverride,
      status: data.status,
      created: event.metadata.businessTime,
      _organisation: data.organisationId,
    };
    context.put(CHARGES, doc);
    return Promise.resolve();
  },
};
