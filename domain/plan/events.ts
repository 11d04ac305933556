import { z } from 'zod';
import { CATALOGUE_STATUSES, planSchema } from '../catalogue/types';
import type { EventDefinition } from '../shared/event-definition';

const updated = z.object({
  planId: z.string(),
  organisationId: z.string(),
  changes: z.object({ status: z.enum(CATALOGUE_STATUSES), name: z.string() }).partial(),
});

export type PlanCreated = { type: 'PlanCreated'; data: z.infer<typeof planSchema> };
export type PlanUpdated = { type: 'PlanUpdated'; data: z.infer<typeof updated> };
export type PlanEvent = PlanCreated | PlanUpdated;

export const planEventDefinitions: EventDefinition[] = [
  { type: 'PlanCreated', version: 1, schema: planSchema },
  { type: 'PlanUpdated', version: 1, schema: updated },
];

export const planStream = (planId: string): string => `plan-${planId}`;
