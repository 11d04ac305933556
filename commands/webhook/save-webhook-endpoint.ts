import type { AddressFacts } from '../../domain/webhook/endpoint-rules';
import { hostOf } from '../../domain/webhook/endpoint-rules';
import { refusedRange } from '../../domain/webhook/address';
import { newId, randomBase62 } from '../../infra/ids';
import type { Resolver } from '../../infra/webhooks/resolver';
import type { CommandDeps } from '../plumbing/deps';
import type { Lookups } from '../plumbing/lookups';
import type { Caller, OrganisationRef } from '../plumbing/metadata';
import { webhookEndpointCommand } from '../plumbing/webhook-endpoint-command';

export type WebhookCommandDeps = CommandDeps & Readonly<{ lookups: Lookups; resolveHost: Resolver; allowLoopback: boolean }>;

export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

const newSecret = (): string => `whsec_${randomBase62(32)}`;

/** What the URL rules need to know of its host: the addresses DNS answers now (none for an IP literal or a bad URL). */
const addressFacts = async (deps: WebhookCommandDeps, url: string): Promise<AddressFacts> => {
  let host: string | null = null;
  try {
    host = hostOf(new URL(url));
  } catch {
    host = null;
  }
  const resolved = host && refusedRange(host) === undefined ? await deps.resolveHost(host) : null;
  return { allowLoopback: deps.allowLoopback, resolved };
};

export type EndpointInput = Readonly<{ url: string; description: string | null; events: string[] }>;

/** Creates an endpoint with a new `whsec_` secret (shown once, in the answer) once every configuration rule has passed. */
export const createWebhookEndpoint = async (deps: WebhookCommandDeps, caller: Caller, organisation: OrganisationRef, input: EndpointInput) => {
  const endpointId = newId('webhookEndpoint');
  const secret = newSecret();
  const { position } = await webhookEndpointCommand(
    deps,
    endpointId,
    {
      type: 'CreateWebhookEndpoint',
      endpointId,
      organisationId: organisation.id,
      ...input,
      secret,
      existingEndpoints: await deps.lookups.webhookEndpointCount(organisation.id),
      address: await addressFacts(deps, input.url),
    },
    caller,
    organisation,
  );
  return { endpointId, secret, position };
};

export type EndpointChanges = Partial<EndpointInput & { status: 'enabled' | 'disabled' }>;

export const updateWebhookEndpoint = async (deps: WebhookCommandDeps, caller: Caller, organisation: OrganisationRef, endpointId: string, changes: EndpointChanges) => {
  const address = changes.url !== undefined ? await addressFacts(deps, changes.url) : { allowLoopback: deps.allowLoopback, resolved: null };
  return webhookEndpointCommand(deps, endpointId, { type: 'UpdateWebhookEndpoint', changes, address }, caller, organisation);
};

/** A new secret; the old one keeps signing for 24 hours. */
export const rollWebhookSecret = async (deps: WebhookCommandDeps, caller: Caller, organisation: OrganisationRef, endpointId: string) => {
  const secret = newSecret();
  const now = deps.clocks.wall.now().getTime();
  const result = await webhookEndpointCommand(
    deps,
    endpointId,
    { type: 'RollWebhookEndpointSecret', secret, previousExpiresAt: new Date(now + SECRET_OVERLAP_MS).toISOString() },
    caller,
    organisation,
  );
  return { ...result, secret };
};

export const sendWebhookTest = (deps: WebhookCommandDeps, caller: Caller, organisation: OrganisationRef, endpointId: string) =>
  webhookEndpointCommand(deps, endpointId, { type: 'SendWebhookTest', testId: newId('event') }, caller, organisation);

export const deleteWebhookEndpoint = (deps: WebhookCommandDeps, caller: Caller, organisation: OrganisationRef, endpointId: string) =>
  webhookEndpointCommand(deps, endpointId, { type: 'DeleteWebhookEndpoint' }, caller, organisation);
