import type { ChargeDefinition } from '../../domain/charge/events';
import { derivedId } from '../../infra/ids';
import { chargeHandler } from '../aggregates';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

export const createCharge = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: Omit<ChargeDefinition, 'chargeId' | 'organisationId'>,
) => {
  const chargeId = derivedId('charge', organisation.id, input.code);
  const { position } = await chargeHandler(deps, caller, organisation, chargeId, { type: 'CreateCharge', ...input, chargeId, organisationId: organisation.id });
  return { chargeId, position };
};
