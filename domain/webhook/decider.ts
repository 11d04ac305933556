import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { type AddressFacts, checkDescription, checkEndpointCount, checkEndpointUrl, checkEventTypes } from './endpoint-rules';
import type { WebhookEndpointEvent } from './events';

export type EndpointStatus = 'enabled' | 'disabled';

type EndpointFields = WebhookEndpointEvent<'WebhookEndpointCreated'>['data'];

export type WebhookEndpointState = { status: 'none' } | { status: 'deleted' } | ({ status: EndpointStatus } & EndpointFields);

type Changes = WebhookEndpointEvent<'WebhookEndpointUpdated'>['data']['changes'];

export type WebhookEndpointCommand =
  | ({ type: 'CreateWebhookEndpoint'; existingEndpoints: number; address: AddressFacts } & EndpointFields)
  | { type: 'UpdateWebhookEndpoint'; changes: Changes; address: AddressFacts }
  | { type: 'RollWebhookEndpointSecret'; secret: string; previousExpiresAt: string }
  | { type: 'DeleteWebhookEndpoint' }
  | { type: 'SendWebhookTest'; testId: string };

const notFound = () => new DomainError('not_found', 'webhook_endpoint_not_found', 'No such webhook endpoint.', 'id');

const evolve = (state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState => {
  switch (event.type) {
    case 'WebhookEndpointCreated':
      return { status: 'enabled', ...event.data };
    case 'WebhookEndpointUpdated':
      return state.status === 'enabled' || state.status === 'disabled' ? { ...state, ...event.data.changes } : state;
    case 'WebhookEndpointSecretRolled':
      return state.status === 'enabled' || state.status === 'disabled' ? { ...state, secret: event.data.secret } : state;
    case 'WebhookEndpointDeleted':
      return { status: 'deleted' };
    case 'WebhookTestRequested':
      return state;
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
};

const decide = (command: WebhookEndpointCommand, state: WebhookEndpointState): WebhookEndpointEvent[] => {
  if (command.type === 'CreateWebhookEndpoint') {
    if (state.status !== 'none') return [];
    checkEndpointCount(command.existingEndpoints);
    checkEndpointUrl(command.url, command.address);
    checkDescription(command.description);
    checkEventTypes(command.events);
    const { type: _type, existingEndpoints: _count, address: _address, ...data } = command;
    return [{ type: 'WebhookEndpointCreated', data }];
  }
  if (state.status === 'none' || state.status === 'deleted') throw notFound();
  const endpointId = state.endpointId;
  switch (command.type) {
    case 'UpdateWebhookEndpoint': {
      const { changes } = command;
      if (changes.url !== undefined) checkEndpointUrl(changes.url, command.address);
      if (changes.description !== undefined) checkDescription(changes.description);
      if (changes.events !== undefined) checkEventTypes(changes.events);
      const differing: Changes = {};
      if (changes.url !== undefined && changes.url !== state.url) differing.url = changes.url;
      if (changes.description !== undefined && changes.description !== state.description) differing.description = changes.description;
      if (changes.events !== undefined && JSON.stringify(changes.events) !== JSON.stringify(state.events)) differing.events = changes.events;
      if (changes.status !== undefined && changes.status !== state.status) differing.status = changes.status;
      return Object.keys(differing).length === 0 ? [] : [{ type: 'WebhookEndpointUpdated', data: { endpointId, changes: differing } }];
    }
    case 'RollWebhookEndpointSecret':
      return [{ type: 'WebhookEndpointSecretRolled', data: { endpointId, secret: command.secret, previousSecret: state.secret, previousExpiresAt: command.previousExpiresAt } }];
    case 'DeleteWebhookEndpoint':
      return [{ type: 'WebhookEndpointDeleted', data: { endpointId } }];
    case 'SendWebhookTest':
      if (state.status !== 'enabled') {
        throw new DomainError('conflict', 'webhook_endpoint_disabled', 'A test event is sent only to an enabled endpoint; turn it on first.');
      }
      return [{ type: 'WebhookTestRequested', data: { endpointId, testId: command.testId } }];
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
};

export const webhookEndpointDecider: Decider<WebhookEndpointState, WebhookEndpointCommand, WebhookEndpointEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
