import { z } from 'zod';
import { CATALOGUE_STATUSES, planSchema } from '../catalogue/types';
import { defineEvents, type EventOf } from '../shared/define-events';

const updated = z.object({
  planId: z.string(),
  organisationId: z.string(),
  changes: z.object({ status: z.enum(CATALOGUE_STATUSES), name: z.string() }).partial(),
});

export const planEvents = defineEvents({
  PlanCreated: planSchema,
  PlanUpdated: updated,
});
export type PlanEvent<Type extends keyof typeof planEvents = keyof typeof planEvents> = EventOf<typeof planEvents, Type>;

export const planStream = (planId: string): string => `plan-${planId}`;
