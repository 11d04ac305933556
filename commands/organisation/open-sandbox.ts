import { withNeeds } from '../../domain/organisation/decider';
import { organisationStream, type SandboxCopy } from '../../domain/organisation/events';
import { DEFAULT_SETTINGS, type OrganisationSettings } from '../../domain/organisation/settings';
import { derivedId } from '../../infra/ids';
import { organisationCommand } from '../organisation/organisation-command';
import type { CommandDeps } from '../deps';
import type { Caller } from '../metadata';
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
  const { state } = await organisationCommand.load(deps.store, live.id);
  const halfOpened =
    state.status === 'open' &&
    state.sandboxId !== null &&
    (await deps.store.readStream(organisationStream(state.sandboxId))).length === 0;
  // The decider refuses a second sandbox (and an unknown or sandbox organisation).
  if (!halfOpened) await organisationCommand(deps, live.id, { type: 'OpenSandbox', sandboxId, copy }, caller, live);
  if (state.status !== 'open') throw new Error('unreachable: OpenSandbox refuses an unknown organisation');
  const { name, timezone, defaultCurrency } = state.settings;
  const settings: OrganisationSettings = withNeeds(copy).settings
    ? { ...state.settings, setupMode: false }
    : { ...DEFAULT_SETTINGS, name, timezone, defaultCurrency };
  return createOrganisation(deps, caller, { organisationId: sandboxId, livemode: false, liveOrganisationId: live.id, settings });
};
