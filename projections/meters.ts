import type { MeterEvent } from '../domain/meter/events';
import type { Projection } from './projection';

export const METERS = 'meters';

export type MeterDoc = {
  id: string;
  object: 'meter';
  code: string;
  name: string;
  unit_labels: { singular: string | null; plural: string | null };
  created: string;
  _organisation: string;
};

export const metersProjection: Projection = {
  name: 'meters',
  version: 1,
  collections: [METERS],
  indexes: [{ collection: METERS, fields: ['_organisation', 'created'] }],
  handles: ['MeterDefined'],
  apply: (event, context) => {
    const { data } = event as unknown as MeterEvent;
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
