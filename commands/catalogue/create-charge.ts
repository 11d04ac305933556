import type { ChargeDefinition } from '../../domain/charge/events';
import { derivedId } from '../../infra/ids';
import { chargeCommand } from '../catalogue/charge-command';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

export const createCharge = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: Omit<ChargeDefinition, 'chargeId' | 'organisationId'>,
) => {
  const chargeId = derivedId('charge', organisation.id, input.code);
  const { position } = await chargeCommand(deps, chargeId, { type: 'CreateCharge', ...input, chargeId, organisationId: organisation.id }, caller, organisation);
  return { chargeId, position };
};
