import type { CustomerUpdated } from '../../domain/customer/events';
import { customerHandler } from '../aggregates';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

export const updateCustomer = (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  customerId: string,
  changes: CustomerUpdated['data']['changes'],
) => customerHandler(deps, caller, organisation, customerId, { type: 'UpdateCustomer', organisationId: organisation.id, changes });
