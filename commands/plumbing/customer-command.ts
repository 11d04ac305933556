import { customerDecider } from '../../domain/customer/decider';
import { customerStream } from '../../domain/customer/events';
import { boundHandler } from './bound-handler';

export const customerCommand = boundHandler(customerDecider, customerStream);
