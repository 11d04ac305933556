import { type OrganisationCommand, organisationDecider } from '../../domain/organisation/decider';
import { organisationStream } from '../../domain/organisation/events';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

/** Runs one command against an existing organisation's stream. */
export const organisationCommand = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  command: OrganisationCommand,
) => handle(deps.store, organisationStream(organisation.id), organisationDecider, command, eventMetadata(caller, organisation, deps.clocks));
