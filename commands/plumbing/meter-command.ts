import { meterDecider } from '../../domain/meter/decider';
import { meterStream } from '../../domain/meter/events';
import { boundHandler } from './bound-handler';

export const meterCommand = boundHandler(meterDecider, meterStream);
