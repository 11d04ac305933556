import { organisationDecider } from '../../domain/organisation/decider';
import { organisationStream } from '../../domain/organisation/events';
import { boundHandler } from './bound-handler';

export const organisationCommand = boundHandler(organisationDecider, organisationStream);
