import type { AccountingSystem } from '../../infra/accounting/port';
import { organisationCommand } from '../plumbing/organisation-command';
import type { CommandDeps } from '../plumbing/deps';
import type { Caller } from '../plumbing/metadata';

/**
 * Connects a demonstration organisation of the accounting system. The connection request carries a
 * key derived from the organisation and its stream revision, so a retry after a crash reuses the
 * demonstration organisation it already made.
 */
export const connectAccounting = async (
  deps: CommandDeps & { accounting: AccountingSystem },
  caller: Caller,
  organisation: { id: string; livemode: boolean; name: string },
) => {
  const { state, revision } = await organisationCommand.load(deps.store, organisation.id);
  if (state.status === 'open' && state.accounting) return { state, position: 0n };
  const connection = await deps.accounting.connect(
    `${organisation.name}${organisation.livemode ? '' : ' (sandbox)'}`,
    `connect-${organisation.id}-${String(revision)}`,
  );
  return organisationCommand(deps, organisation.id, {
    type: 'ConnectAccounting',
    tenantId: connection.tenantId,
    tenantName: connection.name,
    accounts: connection.accounts,
  }, caller, organisation);
};
