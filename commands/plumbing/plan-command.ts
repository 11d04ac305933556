import { planDecider } from '../../domain/plan/decider';
import { planStream } from '../../domain/plan/events';
import { boundHandler } from './bound-handler';

export const planCommand = boundHandler(planDecider, planStream);
