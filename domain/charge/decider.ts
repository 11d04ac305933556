import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { ChargeDefinition, ChargeEvent } from './events';

export type ChargeState = { status: 'none' } | { status: 'defined'; charge: ChargeDefinition };
export type ChargeCommand = { type: 'CreateCharge' } & ChargeDefinition;

export const chargeDecider: Decider<ChargeState, ChargeCommand, ChargeEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'defined', charge: event.data }),
  decide: (command, state) => {
    if (state.status !== 'none') {
      throw new DomainError('conflict', 'charge_exists', `A charge with code ${command.code} exists.`, 'code');
    }
    const { type: _type, ...charge } = command;
    return [{ type: 'ChargeCreated', data: charge }];
  },
};
