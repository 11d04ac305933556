import type { CustomerEvent } from '../../domain/customer/events';
import { customerCommand } from '../plumbing/customer-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

export const updateCustomer = (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  customerId: string,
  changes: CustomerEvent<'CustomerUpdated'>['data']['changes'],
) => customerCommand(deps, customerId, { type: 'UpdateCustomer', organisationId: organisation.id, changes }, caller, organisation);
