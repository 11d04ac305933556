import type { SandboxReset } from '../domain/organisation/events';
import type { Projection } from './projection';

/**
 * A read model a sandbox reset empties for the sandbox: on `SandboxReset` every document of its
 * collections that the sandbox holds goes (each carries its organisation in `_organisation`); the
 * rest of its events it applies as before. Folded from the log like any event, so a rebuild empties
 * the same documents at the same place.
 */
export const emptiedBySandboxReset = (projection: Projection): Projection => ({
  ...projection,
  handles: [...projection.handles, 'SandboxReset'],
  apply: async (event, context) => {
    if (event.type !== 'SandboxReset') return projection.apply(event, context);
    const { organisationId } = (event as unknown as SandboxReset).data;
    for (const collection of projection.collections) context.deleteWhere(collection, '_organisation', organisationId);
  },
});
