import type { UnitLabels } from '../../domain/catalogue/types';
import { resetScope } from '../../domain/organisation/rules';
import { derivedId } from '../../infra/ids';
import { resetGenerationOf } from '../plumbing/reset-generation';
import { meterCommand } from '../plumbing/meter-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

/** A meter's id derives from its organisation and code (and the sandbox's reset generation): the stream refuses a second with that code. */
export const meterIdFor = (organisationId: string, resetGeneration: number, code: string): string =>
  derivedId('meter', organisationId, ...resetScope(resetGeneration), code);

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
