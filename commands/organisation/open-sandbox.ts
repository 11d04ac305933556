import { organisationDecider, withNeeds } from '../../domain/organisation/decider';
import { organisationStream, type SandboxCopy } from '../../domain/organisation/events';
import { DEFAULT_SETTINGS, type OrganisationSettings } from '../../domain/organisation/settings';
import { DomainError } from '../../domain/shared/domain-error';
import { derivedId } from '../../infra/ids';
import type { CommandDeps } from '../deps';
import { handle, loadState } from '../handle';
import { type Caller, eventMetadata } from '../metadata';
import { createOrganisation } from './create-organisation';

/**
 * Opens the one sandbox of a live organisation: first recorded on the live organisation's stream
 * (which refuses a second), then created under an id derived from the live one, so a crash between
 * the two steps is repaired by asking again.
 */
export const openSandbox = async (
  deps: CommandDeps,
  caller: Caller,
  live: { id: string; livemode: boolean },
  copy: SandboxCopy,
) => {
  const sandboxId = derivedId('organisation', live.id, 'sandbox');
  const { state } = await loadState(deps.store, organisationStream(live.id), organisationDecider);
  if (state.status === 'open' && state.sandboxId !== null) {
    const finished = (await deps.store.readStream(organisationStream(state.sandboxId))).length > 0;
    if (finished) {
      throw new DomainError('conflict', 'sandbox_exists', `This organisation already has its sandbox, ${state.sandboxId}.`);
    }
  } else {
    await handle(
      deps.store,
      organisationStream(live.id),
      organisationDecider,
      { type: 'OpenSandbox', sandboxId, copy },
      eventMetadata(caller, live, deps.clocks),
    );
  }
  if (state.status !== 'open') throw new Error('unreachable: OpenSandbox refuses an unknown organisation');
  const { name, timezone, defaultCurrency } = state.settings;
  const settings: OrganisationSettings = withNeeds(copy).settings
    ? { ...state.settings, setupMode: false }
    : { ...DEFAULT_SETTINGS, name, timezone, defaultCurrency };
  return createOrganisation(deps, caller, { organisationId: sandboxId, livemode: false, liveOrganisationId: live.id, settings });
};
