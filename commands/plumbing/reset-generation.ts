import type { EventStore } from '../../infra/event-store/port';
import type { OrganisationRef } from './metadata';
import { loadOpenOrganisation } from './load-open-organisation';

/** How many times the organisation was reset, from its stream; a live organisation is never reset, so for one nothing is read. */
export const resetGenerationOf = async (store: EventStore, organisation: OrganisationRef): Promise<number> =>
  organisation.livemode ? 0 : (await loadOpenOrganisation(store, organisation.id)).resetGeneration;
