import { derivedId, newId } from '../../infra/ids';
import type { CommandDeps } from '../plumbing/deps';
import { loadOpenOrganisation } from '../plumbing/load-open-organisation';
import { refOf } from '../plumbing/metadata';
import { subscriptionCommand } from '../plumbing/subscription-command';

/** What every lifecycle handler starts from: the open organisation, its reference, and the subscription's state. */
export const loadForChange = async (deps: CommandDeps, organisationId: string, subscriptionId: string) => {
  const org = await loadOpenOrganisation(deps.store, organisationId);
  const { state } = await subscriptionCommand.load(deps.store, subscriptionId);
  const now = deps.clocks.forOrganisation(org.organisationId).now().toISOString();
  return { org, ref: refOf(org), state, now };
};

export type LifecycleContext = Readonly<{ organisationId: string; apiKeyId: string; idempotencyKey: string | null }>;

/**
 * The id of one lifecycle request: derived from the API key, its Idempotency-Key and the request, so
 * a retry after a crash finds the change made (and a key reused after its 24 hours with another body
 * is another change); random without a key.
 */
export const operationIdFor = (context: LifecycleContext, subscriptionId: string, kind: string, request: object): string =>
  context.idempotencyKey === null
    ? newId('request')
    : derivedId('request', context.apiKeyId, context.idempotencyKey, subscriptionId, kind, JSON.stringify(request));
