import { chargeDecider } from '../../domain/charge/decider';
import { chargeStream } from '../../domain/charge/events';
import { boundHandler } from './bound-handler';

export const chargeCommand = boundHandler(chargeDecider, chargeStream);
