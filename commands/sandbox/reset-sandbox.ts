import type { SandboxCopy } from '../../domain/organisation/events';
import { latestPosition } from '../plumbing/positions';
import type { Caller } from '../plumbing/metadata';
import { copyIntoSandbox, type CopyDeps } from './copy-into-sandbox';
import { loadOpenOrganisation } from '../plumbing/load-open-organisation';
import { organisationCommand } from '../plumbing/organisation-command';

/**
 * `POST /admin/v1/organisations/{sandbox}/reset`: records the reset on the sandbox's stream (the
 * decider refuses one on a live organisation), with the live organisation's settings copied in the
 * same append when that option is ticked, then copies the catalogue and customers as asked. The
 * read models empty themselves when they meet the event.
 */
export const resetSandbox = async (deps: CopyDeps, caller: Caller, sandboxId: string, copy: SandboxCopy) => {
  const sandbox = await loadOpenOrganisation(deps.store, sandboxId);
  const live = sandbox.liveOrganisationId ? await loadOpenOrganisation(deps.store, sandbox.liveOrganisationId) : sandbox;
  const ref = { id: sandbox.organisationId, livemode: sandbox.livemode };
  const reset = await organisationCommand(deps, sandboxId, { type: 'ResetSandbox', copy, liveSettings: live.settings }, caller, ref);
  if (reset.state.status !== 'open') throw new Error('unreachable: a reset leaves the sandbox open');
  const copied = await copyIntoSandbox(deps, caller, live, reset.state, copy);
  return { resetAt: reset.position, generation: reset.state.resetGeneration, position: latestPosition(reset.position, copied.position) };
};
