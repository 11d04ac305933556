import { z } from 'zod';
import { unitLabelsSchema } from '../catalogue/types';
import { defineEvents, type EventOf } from '../shared/define-events';

const defined = z.object({
  meterId: z.string(),
  organisationId: z.string(),
  code: z.string(),
  name: z.string(),
  unitLabels: unitLabelsSchema,
});

export const meterEvents = defineEvents({
  MeterDefined: defined,
});
export type MeterEvent<Type extends keyof typeof meterEvents = keyof typeof meterEvents> = EventOf<typeof meterEvents, Type>;

export const meterStream = (meterId: string): string => `meter-${meterId}`;
