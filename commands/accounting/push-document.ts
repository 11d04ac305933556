import type { AccountingConnection, OpenOrganisation } from '../../domain/organisation/state';
import { AccountingRefused, type AccountingSystem, AccountingUnavailable, type AccountingTenant } from '../../infra/accounting/port';

/**
 * What a push came to: `synced` and `refused` are recorded on the document; `unavailable` (a 5xx, a
 * timeout, no connection) records nothing and leaves it pending for the worker to try again;
 * `nothing_to_do` when it was already synced or is not raised.
 */
export type PushOutcome = Readonly<{ position: bigint; outcome: 'synced' | 'refused' | 'unavailable' | 'nothing_to_do'; error: string | null }>;

export const NOTHING_TO_DO: PushOutcome = { position: 0n, outcome: 'nothing_to_do', error: null };

/** What an invoice or a credit note supplies to be pushed: its contact, its creation in the accounting system, and the commands recording the outcome. */
export type PushedDocument<Pushed, Command> = Readonly<{
  /** The accounting contact it is pushed for; null when the customer has none, which refuses the push. */
  contactId(): Promise<string | null>;
  /** Creates it in the accounting system, keyed by its own id so that a retry never makes a second. */
  create(tenant: AccountingTenant, contactId: string, accounting: AccountingConnection): Promise<Pushed>;
  /** The command recording it synced, in the accounting organisation it went to. */
  synced(pushed: Pushed, accounting: AccountingConnection): Promise<Command>;
  failed(error: string): Command;
  /** Appends an outcome to the document's stream. */
  record(command: Command): Promise<Readonly<{ position: bigint }>>;
}>;

/**
 * Sends a raised document to the accounting system and records the outcome: synced, or failed with
 * the system's message when it refused (or when no accounting system is connected, or the customer
 * has no contact). An outage records nothing: the document stays pending and the accounting sync
 * worker pushes it again.
 */
export const pushDocument = async <Pushed, Command>(
  deps: Readonly<{ accounting: AccountingSystem }>,
  organisation: OpenOrganisation,
  document: PushedDocument<Pushed, Command>,
): Promise<PushOutcome> => {
  const fail = async (error: string): Promise<PushOutcome> => ({ position: (await document.record(document.failed(error))).position, outcome: 'refused', error });
  const accounting = organisation.accounting;
  if (!accounting) return fail('No accounting system is connected to this organisation.');
  try {
    const contactId = await document.contactId();
    if (contactId === null) return fail('The customer has no contact in the accounting system.');
    const pushed = await document.create(deps.accounting.tenant(accounting.tenantId), contactId, accounting);
    return { position: (await document.record(await document.synced(pushed, accounting))).position, outcome: 'synced', error: null };
  } catch (error) {
    if (error instanceof AccountingRefused) return fail(error.message);
    if (error instanceof AccountingUnavailable) return { position: 0n, outcome: 'unavailable', error: error.message };
    throw error;
  }
};
