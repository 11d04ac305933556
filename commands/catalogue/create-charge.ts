import type { ChargeDefinition } from '../../domain/charge/events';
import { resetGenerationOf } from '../plumbing/reset-generation';
import { chargeCommand } from '../plumbing/charge-command';
import { chargeIdFor } from '../plumbing/ids-by-code';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

export const createCharge = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: Omit<ChargeDefinition, 'chargeId' | 'organisationId'>,
) => {
  const resetGeneration = await resetGenerationOf(deps.store, organisation);
  const chargeId = chargeIdFor(organisation.id, resetGeneration, input.code);
  const { position } = await chargeCommand(deps, chargeId, { type: 'CreateCharge', ...input, chargeId, organisationId: organisation.id }, caller, { ...organisation, resetGeneration });
  return { chargeId, position };
};
