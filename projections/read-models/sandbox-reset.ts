import type { OrganisationEvent } from '../../domain/organisation/events';
import type { Projection } from '../engine/projection';
import { SandboxGenerations } from './sandbox-generations';

/**
 * A read model a sandbox reset empties for the sandbox: on `SandboxReset` every document of its
 * collections that the sandbox holds goes (each carries its organisation in `_organisation`); the
 * rest of its events it applies as before, but for a write of an earlier generation landing after
 * the reset (`SandboxGenerations`), which it skips: resumed from a checkpoint, it first learns the
 * generations the organisations' read model holds. Folded from the log like any event, so a rebuild
 * empties the same documents at the same place.
 */
export const emptiedBySandboxReset = (projection: Projection, generations = new SandboxGenerations()): Projection => ({
  ...projection,
  handles: [...projection.handles, 'SandboxReset'],
  apply: async (event, context) => {
    if (event.type !== 'SandboxReset') {
      if (!generations.outdated(event.metadata)) await projection.apply(event, context);
      return;
    }
    const { organisationId, generation } = (event as unknown as OrganisationEvent<'SandboxReset'>).data;
    for (const collection of projection.collections) context.deleteWhere(collection, '_organisation', organisationId);
    generations.reset(organisationId, generation);
  },
  resume: async (live) => {
    await generations.learnFrom(live);
    await projection.resume?.(live);
  },
});
