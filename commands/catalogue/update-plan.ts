import type { CatalogueStatus } from '../../domain/catalogue/types';
import { planCommand } from '../plumbing/plan-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

export const updatePlan = (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  planId: string,
  changes: { status?: CatalogueStatus; name?: string },
) => planCommand(deps, planId, { type: 'UpdatePlan', organisationId: organisation.id, changes }, caller, organisation);
