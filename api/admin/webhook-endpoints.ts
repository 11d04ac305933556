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
    {
      ...base,
      method: 'post',
      path,
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint',
      description: `
        Adds an endpoint the service sends events to, \`enabled\`, for the event types listed or \`["*"]\`
        for all (types added later included). Each delivery is an HTTPS \`POST\` signed in
        \`Service-Signature\` (\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">\`) with the
        endpoint's \`secret\`, which is in this answer only. Only changes made after the endpoint is
        created are sent to it.

        The URL is \`https://\` on port 443, reachable from the internet (no localhost, private or
        link-local address, checked now and at every delivery), without credentials or fragment, up to
        2,000 characters.

        **Errors:** \`409 webhook_endpoint_limit_reached\`: the organisation has 10 endpoints already;
        \`422 invalid_parameter\`: the URL breaks a rule above, an unknown event type, a description over 255 characters.
      `,
      body: createWebhookEndpointBody,
      examples: [
        { summary: 'Every event', value: { url: 'https://hooks.example.com/billing', description: 'Billing events for the CRM', events: ['*'] } },
        { summary: 'Invoices only', value: { url: 'https://erp.example.com/webhooks/invoices', events: ['invoice.created', 'invoice.paid', 'invoice.voided'] } },
      ],
      status: 201,
      response: webhookEndpointWithSecret,
      errors: [404, 409],
    },
    async ({ req, params, body }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const created = await createWebhookEndpoint(commandDeps, caller(req), { id: organisation.id, livemode: organisation.livemode }, toEndpointInput(body));
      return { body: await readAfterWrite(deps, created.position, async () => ({ ...(await read(created.endpointId)), secret: created.secret })) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path,
      operationId: 'listWebhookEndpoints',
      summary: 'List webhook endpoints',
      description: 'The organisation’s webhook endpoints, newest first, paged with `limit` and `starting_after`; their secrets are never shown again.',
      query: listQuery({}),
      status: 200,
      response: listOf(webhookEndpointObject),
      errors: [404],
    },
    async ({ params, query }) => {
      const organisation = await findOrganisation(deps, params.org!);
      return { body: await listPage(deps.readStore, WEBHOOK_ENDPOINTS, organisation.id, query) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: `${path}/{id}`,
      operationId: 'getWebhookEndpoint',
      summary: 'Retrieve a webhook endpoint',
      description: 'A webhook endpoint by its id (`we_…`), without its secret.\n\n**Errors:** `404 webhook_endpoint_not_found`.',
      status: 200,
      response: webhookEndpointObject,
      errors: [404],
    },
    async ({ params }) => ({ body: publicView((await owned(params)).endpoint) }),
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'patch',
      path: `${path}/{id}`,
      operationId: 'updateWebhookEndpoint',
      summary: 'Change a webhook endpoint',
      description: `
        Changes the fields sent: \`url\`, \`description\`, \`events\`, or \`status\` (\`disabled\` turns the
        endpoint off: nothing is delivered to it until it is \`enabled\` again). The URL rules are those of
        creation.

        **Errors:** \`404 webhook_endpoint_not_found\`; \`422 invalid_parameter\` names the field that breaks a rule.
      `,
      body: updateWebhookEndpointBody,
      examples: [
        { summary: 'Turn it off', value: { status: 'disabled' } },
        { summary: 'Move it and narrow its events', value: { url: 'https://hooks.example.com/billing/v2', events: ['subscription.created', 'subscription.ended'] } },
      ],
      status: 200,
      response: webhookEndpointObject,
      errors: [404],
    },
    async ({ req, params, body }) => {
      const { ref, endpoint } = await owned(params);
      const { position } = await updateWebhookEndpoint(commandDeps, caller(req), ref, endpoint.id, toEndpointChanges(body));
      return { body: await readAfterWrite(deps, position, () => read(endpoint.id)) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'delete',
      path: `${path}/{id}`,
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: 'Deletes the endpoint and its delivery history; deliveries still pending are dropped.\n\n**Errors:** `404 webhook_endpoint_not_found`.',
      status: 200,
      response: deletedWebhookEndpoint,
      errors: [404],
    },
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
    {
      ...base,
      method: 'post',
      path: `${path}/{id}/roll_secret`,
      operationId: 'rollWebhookSecret',
      summary: 'Roll the signing secret',
      description: `
        Makes a new signing secret, in this answer only. For 24 hours deliveries carry a signature by
        each secret, so receivers can move to the new one without missing an event.

        **Errors:** \`404 webhook_endpoint_not_found\`.
      `,
      body: z.strictObject({}),
      examples: [{ summary: 'No fields', value: {} }],
      status: 200,
      response: webhookEndpointWithSecret,
      errors: [404],
    },
    async ({ req, params }) => {
      const { ref, endpoint } = await owned(params);
      const rolled = await rollWebhookSecret(commandDeps, caller(req), ref, endpoint.id);
      return { body: await readAfterWrite(deps, rolled.position, async () => ({ ...(await read(endpoint.id)), secret: rolled.secret })) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: `${path}/{id}/test`,
      operationId: 'sendWebhookTest',
      summary: 'Send a test event',
      description: `
        Queues a \`webhook.test\` event to this endpoint alone, delivered and retried like any other; its
        outcome appears in the endpoint's deliveries.

        **Errors:** \`404 webhook_endpoint_not_found\`; \`409 webhook_endpoint_disabled\`: turn the endpoint on first.
      `,
      body: z.strictObject({}),
      examples: [{ summary: 'No fields', value: {} }],
      status: 202,
      response: webhookTestObject,
      errors: [404, 409],
    },
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
      summary: 'List an endpoint’s deliveries',
      description: `
        Deliveries to the endpoint, newest first, paged with \`limit\` and \`starting_after\`, each with its
        attempts and their outcomes. A failed attempt is retried after 30 s, 2 min, 10 min, 30 min, 1 h,
        2 h, 4 h, 6 h and 6 h (about 20 hours, with jitter); then the delivery is \`failed\`.

        **Errors:** \`404 webhook_endpoint_not_found\`.
      `,
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
