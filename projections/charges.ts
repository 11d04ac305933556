import type { ChargeEvent } from '../domain/charge/events';
import type { Projection } from './projection';

export const CHARGES = 'charges';

export type ChargeDoc = {
  id: string;
  object: 'charge';
  code: string;
  name: string;
  description: string | null;
  currency: string;
  price: string;
  allows_price_override: boolean;
  status: string;
  created: string;
  _organisation: string;
};

export const chargesProjection: Projection = {
  name: 'charges',
  version: 1,
  collections: [CHARGES],
  indexes: [
    { collection: CHARGES, fields: ['_organisation', 'created'] },
    { collection: CHARGES, fields: ['_organisation', 'code'] },
  ],
  handles: ['ChargeCreated'],
  apply: (event, context) => {
    const { data } = event as unknown as ChargeEvent;
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
