import type { Decider, DomainEvent } from '../../domain/shared/decider';
import type { EventStore } from '../../infra/event-store/port';
import { aggregateStatesOf } from './aggregate-states';
import type { CommandDeps } from './deps';
import { type BeforeAppend, handle, type Loaded } from './handle';
import { type Caller, eventMetadata, type OrganisationRef } from './metadata';

/**
 * One aggregate's command handler, its decider and stream bound once (as Emmett's `CommandHandler`):
 * `xCommand(deps, id, command, caller, organisation)` loads the stream, decides, appends with the
 * caller's metadata; `xCommand.load(store, id)` folds the stream for a handler that needs the state first,
 * and passing that state (`loaded`) back to `xCommand` spares reading the stream again. Both start from
 * the state this process last folded or committed for the stream (`AggregateStates`).
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
    ) => {
      const states = aggregateStatesOf(deps.store);
      const source = loaded ? states.sourceFrom(streamOf(id), decider, loaded) : states.source(streamOf(id), decider);
      return handle(deps.store, streamOf(id), decider, command, eventMetadata(caller, organisation, deps.clocks), beforeAppend, source);
    },
    { load: (store: EventStore, id: string) => aggregateStatesOf(store).load(streamOf(id), decider) },
  );
