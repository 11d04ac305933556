import type { OpenOrganisation } from '../../domain/organisation/state';
import { requireOpen } from '../../domain/organisation/rules';
import type { EventStore } from '../../infra/event-store/port';
import { organisationCommand } from './organisation-command';

/** The organisation a command acts for, folded from its stream; `404 organisation_not_found` when there is none. */
export const loadOpenOrganisation = async (store: EventStore, organisationId: string): Promise<OpenOrganisation> =>
  requireOpen((await organisationCommand.load(store, organisationId)).state);
