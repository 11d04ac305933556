import { organisationStream, type SandboxCopy } from '../../domain/organisation/events';
import { sandboxSettings } from '../../domain/organisation/sandbox-copy';
import { derivedId } from '../../infra/ids';
import { organisationCommand } from '../plumbing/organisation-command';
import { latestPosition } from '../plumbing/positions';
import type { Caller } from '../plumbing/metadata';
import { copyIntoSandbox, type CopyDeps } from './copy-into-sandbox';
import { createOrganisation } from '../organisation/create-organisation';

/**
 * Opens the one sandbox of a live organisation: first recorded on the live organisation's stream
 * (which refuses a second), then created under an id derived from the live one, so a crash between
 * the two steps is repaired by asking again.
 */
export const openSandbox = async (
  deps: CopyDeps,
  caller: Caller,
  live: { id: string; livemode: boolean },
  copy: SandboxCopy,
) => {
  const sandboxId = derivedId('organisation', live.id, 'sandbox');
  const { state } = await organisationCommand.load(deps.store, live.id);
  const halfOpened =
    state.status === 'open' &&
    state.sandboxId !== null &&
    (await deps.store.readStream(organisationStream(state.sandboxId), 0, 1)).length === 0;
  // The decider refuses a second sandbox (and an unknown or sandbox organisation).
  if (!halfOpened) await organisationCommand(deps, live.id, { type: 'OpenSandbox', sandboxId, copy }, caller, live);
  if (state.status !== 'open') throw new Error('unreachable: OpenSandbox refuses an unknown organisation');
  const settings = sandboxSettings(state.settings, copy);
  const created = await createOrganisation(deps, caller, { organisationId: sandboxId, livemode: false, liveOrganisationId: live.id, settings });
  if (created.state.status !== 'open') throw new Error('unreachable: the sandbox was just created');
  const copied = await copyIntoSandbox(deps, caller, state, created.state, copy);
  return { ...created, position: latestPosition(created.position, copied.position) };
};
