import type { Decider, DomainEvent } from '../domain/shared/decider';
import type { EventStore } from '../infra/event-store/port';
import type { CommandDeps } from './deps';
import { type BeforeAppend, handle, type Loaded, loadState } from './handle';
import { type Caller, eventMetadata, type OrganisationRef } from './metadata';

/**
 * One aggregate's command handler, its decider and stream bound once (as Emmett's `CommandHandler`):
 * `xCommand(deps, id, command, caller, organisation)` loads the stream, decides, appends with the
 * caller's metadata; `xCommand.load(store, id)` folds the stream for a handler that needs the state first,
 * and passing that state (`loaded`) back to `xCommand` spares reading the stream again.
 */
export const boundHandler = <State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  streamOf: (id: string) => string,
) =>
  Object.assign(
    (
      deps: CommandDeps,
      id: string,
      command: Command,
      caller: Caller,
      organisation: OrganisationRef,
      beforeAppend?: BeforeAppend<State, Event>,
      loaded?: Loaded<State>,
    ) => handle(deps.store, streamOf(id), decider, command, eventMetadata(caller, organisation, deps.clocks), beforeAppend, loaded),
    { load: (store: EventStore, id: string) => loadState(store, streamOf(id), decider) },
  );
