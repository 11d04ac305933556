import type { Request, Router } from 'express';
import { z } from 'zod';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rollWebhookSecret,
  sendWebhookTest,
  updateWebhookEndpoint,
  type WebhookCommandDeps,
} from '../../commands/webhook/save-webhook-endpoint';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointDoc } from '../../projections/read-models/webhook-endpoints';
import { WEBHOOK_DELIVERIES } from '../../infra/webhooks/deliveries';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { listOf, listPage, listQuery, publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import { type RouteRegistry, route } from '../route';
import {
  createWebhookEndpointBody,
  deletedWebhookEndpoint,
  toEndpointChanges,
  toEndpointInput,
  updateWebhookEndpointBody,
  webhookDeliveryObject,
  webhookEndpointObject,
  webhookEndpointWithSecret,
  webhookTestObject,
} from '../schemas/webhook-endpoint';
import { adminCaller } from './admin-caller';
import { findOrganisation } from './organisations';

export const webhookEndpointRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Webhook endpoints', auth: 'admin' } as const;
  const path = '/admin/v1/organisations/{org}/webhook_endpoints';
  const commandDeps: WebhookCommandDeps = deps;
  const caller = (req: Request) => adminCaller(req);
  const owned = async (params: Record<string, string>) => {
    const organisation = await findOrganisation(deps, params.org!);
    const endpoint = await findOwned<WebhookEndpointDoc>(deps, WEBHOOK_ENDPOINTS, organisation.id, params.id!, 'webhook_endpoint_not_found');
    return { organisation, ref: { id: organisation.id, livemode: organisation.livemode }, endpoint };
  };
  const read = async (id: string) => publicView((await deps.readStore.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, id))!);

  route(
    router,
    registry,
    { ...base, method: 'post', path, operationId: 'createWebhookEndpoint', summary: 'Create a webhook endpoint (its signing secret is shown only here)', body: createWebhookEndpointBody, status: 201, response: webhookEndpointWithSecret, errors: [404, 409] },
    async ({ req, params, body }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const created = await createWebhookEndpoint(commandDeps, caller(req), { id: organisation.id, livemode: organisation.livemode }, toEndpointInput(body));
      return { body: await readAfterWrite(deps, created.position, async () => ({ ...(await read(created.endpointId)), secret: created.secret })) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'get', path, operationId: 'listWebhookEndpoints', summary: 'List webhook endpoints, newest first', query: listQuery({}), status: 200, response: listOf(webhookEndpointObject), errors: [404] },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      return { body: await listPage(deps.readStore, WEBHOOK_ENDPOINTS, organisation.id, query) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'get', path: `${path}/{id}`, operationId: 'getWebhookEndpoint', summary: 'Retrieve a webhook endpoint', status: 200, response: webhookEndpointObject, errors: [404] },
    async ({ params }) => ({ body: publicView((await owned(params)).endpoint) }),
  );

  route(
    router,
    registry,
    { ...base, method: 'patch', path: `${path}/{id}`, operationId: 'updateWebhookEndpoint', summary: 'Edit a webhook endpoint, or turn it off and on', body: updateWebhookEndpointBody, status: 200, response: webhookEndpointObject, errors: [404] },
    async ({ req, params, body }) => {
      const { ref, endpoint } = await owned(params);
      const { position } = await updateWebhookEndpoint(commandDeps, caller(req), ref, endpoint.id, toEndpointChanges(body));
      return { body: await readAfterWrite(deps, position, () => read(endpoint.id)) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'delete', path: `${path}/{id}`, operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint and its delivery history', status: 200, response: deletedWebhookEndpoint, errors: [404] },
    async ({ req, params }) => {
      const { ref, endpoint } = await owned(params);
      const { position } = await deleteWebhookEndpoint(commandDeps, caller(req), ref, endpoint.id);
      await deps.waitForProjections(position);
      return { body: { id: endpoint.id, object: 'webhook_endpoint' as const, deleted: true as const } };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'post', path: `${path}/{id}/roll_secret`, operationId: 'rollWebhookSecret', summary: 'Roll the signing secret (the old one keeps signing for 24 hours)', body: z.strictObject({}), status: 200, response: webhookEndpointWithSecret, errors: [404] },
    async ({ req, params }) => {
      const { ref, endpoint } = await owned(params);
      const rolled = await rollWebhookSecret(commandDeps, caller(req), ref, endpoint.id);
      return { body: await readAfterWrite(deps, rolled.position, async () => ({ ...(await read(endpoint.id)), secret: rolled.secret })) };
    },
  );

  route(
    router,
    registry,
    { ...base, method: 'post', path: `${path}/{id}/test`, operationId: 'sendWebhookTest', summary: 'Send a webhook.test event (only to an enabled endpoint)', body: z.strictObject({}), status: 202, response: webhookTestObject, errors: [404, 409] },
    async ({ req, params }) => {
      const { ref, endpoint } = await owned(params);
      await sendWebhookTest(commandDeps, caller(req), ref, endpoint.id);
      return { body: { object: 'webhook_test' as const, endpoint: endpoint.id, status: 'queued' as const } };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: `${path}/{id}/deliveries`,
      operationId: 'listWebhookDeliveries',
      summary: 'Deliveries to the endpoint, newest first, with their attempts and outcomes',
      query: listQuery({}),
      status: 200,
      response: listOf(webhookDeliveryObject),
      errors: [404],
    },
    async ({ params, query }) => {
      const { organisation, endpoint } = await owned(params);
      return { body: await listPage(deps.readStore, WEBHOOK_DELIVERIES, organisation.id, { ...query, endpoint: endpoint.id }) };
    },
  );
};
