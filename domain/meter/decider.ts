import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { MeterEvent } from './events';

export type MeterState = { status: 'none' } | ({ status: 'defined' } & MeterEvent<'MeterDefined'>['data']);
export type MeterCommand = { type: 'DefineMeter' } & MeterEvent<'MeterDefined'>['data'];

export const meterDecider: Decider<MeterState, MeterCommand, MeterEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'defined', ...event.data }),
  decide: (command, state) => {
    if (state.status !== 'none') {
      throw new DomainError('conflict', 'meter_exists', `A meter with code ${command.code} exists.`, 'code');
    }
    const { type: _type, ...data } = command;
    return [{ type: 'MeterDefined', data }];
  },
};
