import type { UnitLabels } from '../../domain/catalogue/types';
import { derivedId } from '../../infra/ids';
import { meterCommand } from '../catalogue/meter-command';
import type { CommandDeps } from '../deps';
import type { Caller, OrganisationRef } from '../metadata';

/** A meter's id derives from its organisation and code: the stream refuses a second with that code. */
export const meterIdFor = (organisationId: string, code: string): string => derivedId('meter', organisationId, code);

export const defineMeter = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: OrganisationRef,
  input: { code: string; name: string; unitLabels: UnitLabels },
) => {
  const meterId = meterIdFor(organisation.id, input.code);
  const { position } = await meterCommand(deps, meterId, { type: 'DefineMeter', meterId, organisationId: organisation.id, ...input }, caller, organisation);
  return { meterId, position };
};
