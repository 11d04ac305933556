import type { UnitLabels } from '../../domain/catalogue/types';
import { meterDecider } from '../../domain/meter/decider';
import { meterStream } from '../../domain/meter/events';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

/** A meter's id derives from its organisation and code: the stream refuses a second with that code. */
export const meterIdFor = (organisationId: string, code: string): string => derivedId('meter', organisationId, code);

export const defineMeter = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  input: { code: string; name: string; unitLabels: UnitLabels },
) => {
  const meterId = meterIdFor(organisation.id, input.code);
  const result = await handle(
    deps.store,
    meterStream(meterId),
    meterDecider,
    { type: 'DefineMeter', meterId, organisationId: organisation.id, ...input },
    eventMetadata(caller, organisation, deps.clocks),
  );
  return { meterId, position: result.position };
};
