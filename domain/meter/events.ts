import { z } from 'zod';
import { unitLabelsSchema } from '../catalogue/types';
import type { EventDefinition } from '../shared/event-definition';

const defined = z.object({
  meterId: z.string(),
  organisationId: z.string(),
  code: z.string(),
  name: z.string(),
  unitLabels: unitLabelsSchema,
});

export type MeterDefined = { type: 'MeterDefined'; data: z.infer<typeof defined> };
export type MeterEvent = MeterDefined;

export const meterEventDefinitions: EventDefinition[] = [{ type: 'MeterDefined', version: 1, schema: defined }];

export const meterStream = (meterId: string): string => `meter-${meterId}`;
