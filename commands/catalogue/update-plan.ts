import type { CatalogueStatus } from '../../domain/catalogue/types';
import { planHandler } from '../aggregates';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

export const updatePlan = (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  planId: string,
  changes: { status?: CatalogueStatus; name?: string },
) => planHandler(deps, caller, organisation, planId, { type: 'UpdatePlan', organisationId: organisation.id, changes });
