import { apiKeyDecider } from '../domain/api-key/decider';
import { apiKeyStream } from '../domain/api-key/events';
import { chargeDecider } from '../domain/charge/decider';
import { chargeStream } from '../domain/charge/events';
import { customerDecider } from '../domain/customer/decider';
import { customerStream } from '../domain/customer/events';
import { invoiceDecider } from '../domain/invoice/decider';
import { invoiceStream } from '../domain/invoice/events';
import { meterDecider } from '../domain/meter/decider';
import { meterStream } from '../domain/meter/events';
import { organisationDecider } from '../domain/organisation/decider';
import { organisationStream } from '../domain/organisation/events';
import { planDecider } from '../domain/plan/decider';
import { planStream } from '../domain/plan/events';
import { subscriptionDecider } from '../domain/subscription/decider';
import { subscriptionStream } from '../domain/subscription/events';
import { boundHandler } from './bound-handler';

/** Every aggregate's handler: the only place a decider meets its stream. */
export const organisationHandler = boundHandler(organisationDecider, organisationStream);
export const apiKeyHandler = boundHandler(apiKeyDecider, apiKeyStream);
export const customerHandler = boundHandler(customerDecider, customerStream);
export const meterHandler = boundHandler(meterDecider, meterStream);
export const planHandler = boundHandler(planDecider, planStream);
export const chargeHandler = boundHandler(chargeDecider, chargeStream);
export const subscriptionHandler = boundHandler(subscriptionDecider, subscriptionStream);
export const invoiceHandler = boundHandler(invoiceDecider, invoiceStream);

/** A command on an organisation's own stream: its id is the organisation's. */
export const organisationCommand = (
  deps: Parameters<typeof organisationHandler>[0],
  caller: Parameters<typeof organisationHandler>[1],
  organisation: Parameters<typeof organisationHandler>[2],
  command: Parameters<typeof organisationHandler>[4],
) => organisationHandler(deps, caller, organisation, organisation.id, command);
