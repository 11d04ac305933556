import type { UnitLabels } from '../../domain/catalogue/types';
import { resetGenerationOf } from '../plumbing/reset-generation';
import { meterIdFor } from '../plumbing/ids-by-code';
import { meterCommand } from '../plumbing/meter-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

export const defineMeter = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: { code: string; name: string; unitLabels: UnitLabels },
) => {
  const resetGeneration = await resetGenerationOf(deps.store, organisation);
  const meterId = meterIdFor(organisation.id, resetGeneration, input.code);
  const { position } = await meterCommand(deps, meterId, { type: 'DefineMeter', meterId, organisationId: organisation.id, ...input }, caller, { ...organisation, resetGeneration });
  return { meterId, position };
};
