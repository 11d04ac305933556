import { z } from 'zod';
import { unitLabelsSchema } from '../../domain/catalogue/types';
import type { MeterEvent } from '../../domain/meter/events';
import type { Projection } from '../engine/projection';

export const METERS = 'meters';

/** The Meter object of the API document; `_`-prefixed fields are internal. */
export const meterDocument = z.object({
  id: z.string(),
  object: z.literal('meter'),
  code: z.string(),
  name: z.string(),
  unit_labels: unitLabelsSchema,
  created: z.string(),
  _organisation: z.string(),
});
export type MeterDoc = z.infer<typeof meterDocument>;

export const metersProjection: Projection<MeterEvent> = {
  name: 'meters',
  version: 1,
  collections: [METERS],
  indexes: [{ collection: METERS, fields: ['_organisation', 'created'] }],
  handles: ['MeterDefined'],
  apply: (event, context) => {
    const { data } = event;
    const doc: MeterDoc = {
      id: data.meterId,
      object: 'meter',
      code: data.code,
      name: data.name,
      unit_labels: data.unitLabels,
      created: event.metadata.businessTime,
      _organisation: data.organisationId,
    };
    context.put(METERS, doc);
    return Promise.resolve();
  },
};
