import { chargeDecider } from '../../domain/charge/decider';
import { type ChargeDefinition, chargeStream } from '../../domain/charge/events';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { handle } from '../handle';
import { type Caller, eventMetadata } from '../metadata';

export const createCharge = async (
  deps: CommandDeps,
  caller: Caller,
  organisation: { id: string; livemode: boolean },
  input: Omit<ChargeDefinition, 'chargeId' | 'organisationId'>,
) => {
  const chargeId = derivedId('charge', organisation.id, input.code);
  const result = await handle(
    deps.store,
    chargeStream(chargeId),
    chargeDecider,
    { type: 'CreateCharge', ...input, chargeId, organisationId: organisation.id },
    eventMetadata(caller, organisation, deps.clocks),
  );
  return { chargeId, position: result.position };
};
