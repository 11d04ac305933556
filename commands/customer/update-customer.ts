import { customerDecider } from '../../domain/customer/decider';
import { type CustomerUpdated, customerStream } from '../../domain/customer/events';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export const updateCustomer = (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  customerId: string,
  changes: CustomerUpdated['data']['changes'],
) =>
  handle(
    deps.store,
    customerStream(customerId),
    customerDecider,
    { type: 'UpdateCustomer', organisationId: organisation.id, changes },
    eventMetadata(caller, organisation, deps.clocks),
  );
