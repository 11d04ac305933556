import { invoiceDecider } from '../../domain/invoice/decider';
import { invoiceStream } from '../../domain/invoice/events';
import { boundHandler } from './bound-handler';

export const invoiceCommand = boundHandler(invoiceDecider, invoiceStream);
