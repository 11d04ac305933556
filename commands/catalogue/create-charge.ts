import type { ChargeDefinition } from '../../domain/charge/events';
import { resetScope } from '../../domain/organisation/rules';
import { derivedId } from '../../infra/ids';
import { resetGenerationOf } from '../plumbing/reset-generation';
import { chargeCommand } from '../plumbing/charge-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller, OrganisationRef } from '../plumbing/metadata';

/** A charge's id derives from its organisation and code (and the sandbox's reset generation): the stream refuses a second with that code. */
export const chargeIdFor = (organisationId: string, resetGeneration: number, code: string): string =>
  derivedId('charge', organisationId, ...resetScope(resetGeneration), code);

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
