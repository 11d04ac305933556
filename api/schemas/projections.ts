import { z } from 'zod';
import type { ProjectionStatus, RebuildStatus } from '../../projections/engine/runner';

/** One read model's projection, as `GET /admin/v1/projections` lists it. */
export const projectionObject = z
  .object({
    id: z.string(),
    object: z.literal('projection'),
    name: z.string(),
    version: z.number().int(),
    checkpoint: z.number().int(),
    head: z.number().int(),
    lag: z.number().int(),
    status: z.enum(['live', 'rebuilding']),
  })
  .meta({ id: 'Projection' });

export const toProjectionObject = (projection: ProjectionStatus): z.infer<typeof projectionObject> => ({
  id: projection.name,
  object: 'projection',
  name: projection.name,
  version: projection.version,
  checkpoint: Number(projection.checkpoint),
  head: Number(projection.head),
  lag: Number(projection.lag),
  status: projection.status,
});

export const rebuildBody = z.strictObject({
  projections: z.array(z.string().min(1)).min(1).optional().describe('Projection names; default all'),
  verify: z.boolean().default(false).describe('Compare the new generation with the live one, document by document, before switching'),
});

/** A blue/green rebuild: its progress, and once switched, what `verify` found. */
export const rebuildObject = z
  .object({
    object: z.literal('projection_rebuild'),
    status: z.enum(['running', 'switched', 'failed']),
    projections: z.array(z.string()),
    verify: z.boolean(),
    events: z.number().int(),
    position: z.number().int(),
    head: z.number().int(),
    events_per_second: z.number(),
    eta_seconds: z.number().nullable(),
    differences: z
      .array(z.object({ projection: z.string(), collection: z.string(), id: z.string(), difference: z.enum(['only_live', 'only_new', 'changed']) }))
      .nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'ProjectionRebuild' });
export type RebuildObject = z.infer<typeof rebuildObject>;

export const toRebuildObject = (rebuild: RebuildStatus): RebuildObject => ({
  object: 'projection_rebuild',
  status: rebuild.status,
  projections: rebuild.projections,
  verify: rebuild.verify,
  events: rebuild.events,
  position: Number(rebuild.position),
  head: Number(rebuild.head),
  events_per_second: rebuild.eventsPerSecond,
  eta_seconds: rebuild.etaSeconds,
  differences: rebuild.differences ? [...rebuild.differences] : null,
  error: rebuild.error,
});
