import type { OrganisationEvent } from '../../domain/organisation/events';
import type { DomainEvent } from '../../domain/shared/decider';
import type { ProjectedEvent, Projection } from '../engine/projection';
import { SandboxGenerations } from './sandbox-generations';

type SandboxReset = OrganisationEvent<'SandboxReset'>;

const isReset = (event: ProjectedEvent<DomainEvent>): event is ProjectedEvent<SandboxReset> => event.type === 'SandboxReset';

/**
 * A read model a sandbox reset empties for the sandbox: on `SandboxReset` every document of its
 * collections that the sandbox holds goes (each carries its organisation in `_organisation`); the
 * rest of its events it applies as before, but for a write of an earlier generation landing after
 * the reset (`SandboxGenerations`), which it skips: resumed from a checkpoint, it first learns the
 * generations the organisations' read model holds. Folded from the log like any event, so a rebuild
 * empties the same documents at the same place. It is a projection as the runner holds them, of any event.
 */
export const emptiedBySandboxReset = <Event extends DomainEvent>(projection: Projection<Event>, generations = new SandboxGenerations()): Projection =>
  ({
    ...projection,
    handles: [...projection.handles, 'SandboxReset'],
    apply: async (event, context) => {
      if (!isReset(event)) {
        if (!generations.outdated(event.metadata)) await projection.apply(event, context);
        return;
      }
      const { organisationId, generation } = event.data;
      for (const collection of projection.collections) context.deleteWhere(collection, '_organisation', organisationId);
      generations.reset(organisationId, generation);
    },
    resume: async (live) => {
      await generations.learnFrom(live);
      await projection.resume?.(live);
    },
  }) satisfies Projection<Event | SandboxReset>;
