import type { Request, Router } from 'express';
import { createWebhookEndpoint, rollWebhookSecret, sendWebhookTest, updateWebhookEndpoint } from '../../../commands/webhook/save-webhook-endpoint';
import { WEBHOOK_DELIVERIES } from '../../../infra/webhooks/deliveries';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointDoc } from '../../../projections/read-models/webhook-endpoints';
import type { ApiDeps } from '../../deps';
import { findOwned } from '../../find-owned';
import { listPage } from '../../paging';
import { createWebhookEndpointBody, toEndpointInput } from '../../schemas/webhook-endpoint';
import { parseOrThrow } from '../../validation';
import { command, page, type PageLoader } from '../page';
import { consoleCaller } from '../session';
import { organisationOf, organisationPath } from './organisation';
import { formQuery } from './paging';

/** Deliveries shown per endpoint: the latest. */
const DELIVERIES_SHOWN = 10;

export const webhookPages = (router: Router, deps: ApiDeps): void => {
  const webhooks: PageLoader = async (req, form) => {
    const organisation = await organisationOf(deps, req);
    const endpoints = await listPage(deps.readStore, WEBHOOK_ENDPOINTS, organisation.id, { limit: 100 });
    const deliveries = await Promise.all(
      endpoints.data.map((endpoint) => listPage(deps.readStore, WEBHOOK_DELIVERIES, organisation.id, { limit: DELIVERIES_SHOWN, endpoint: endpoint.id })),
    );
    return { view: 'webhooks', title: 'Webhooks', organisation, data: { endpoints: endpoints.data.map((endpoint, i) => ({ ...endpoint, deliveries: deliveries[i]!.data })), form } };
  };
  page(router, '/organisations/:org/webhooks', webhooks);

  command(router, '/organisations/:org/webhooks', 'create-endpoint', webhooks, async (req) => {
    const organisation = await organisationOf(deps, req);
    const fields = formQuery(req.body, ['url', 'description', 'events']);
    const events = (fields.events ?? '').split(',').map((event) => event.trim()).filter(Boolean);
    const body = parseOrThrow(createWebhookEndpointBody, { ...fields, events });
    const created = await createWebhookEndpoint(deps, consoleCaller(req), organisation, toEndpointInput(body));
    await deps.waitForProjections(created.position);
    return { show: { secret: { endpoint: created.endpointId, value: created.secret } } };
  });

  const endpointOf = async (req: Request) => {
    const organisation = await organisationOf(deps, req);
    const endpoint = await findOwned<WebhookEndpointDoc>(deps, WEBHOOK_ENDPOINTS, organisation.id, req.params.id as string, 'webhook_endpoint_not_found');
    return { organisation, endpoint };
  };
  for (const status of ['enabled', 'disabled'] as const) {
    command(router, `/organisations/:org/webhooks/:id/${status === 'enabled' ? 'enable' : 'disable'}`, `endpoint-${status}`, webhooks, async (req) => {
      const { organisation, endpoint } = await endpointOf(req);
      const { position } = await updateWebhookEndpoint(deps, consoleCaller(req), organisation, endpoint.id, { status });
      await deps.waitForProjections(position);
      return { notice: `Endpoint ${endpoint.url} ${status}.`, redirect: organisationPath(organisation.id, '/webhooks') };
    });
  }
  command(router, '/organisations/:org/webhooks/:id/roll-secret', 'roll-secret', webhooks, async (req) => {
    const { organisation, endpoint } = await endpointOf(req);
    const rolled = await rollWebhookSecret(deps, consoleCaller(req), organisation, endpoint.id);
    await deps.waitForProjections(rolled.position);
    return { show: { secret: { endpoint: endpoint.id, value: rolled.secret } } };
  });
  command(router, '/organisations/:org/webhooks/:id/test', 'send-test', webhooks, async (req) => {
    const { organisation, endpoint } = await endpointOf(req);
    await sendWebhookTest(deps, consoleCaller(req), organisation, endpoint.id);
    return { notice: `A webhook.test event is queued for ${endpoint.url}.`, redirect: organisationPath(organisation.id, '/webhooks') };
  });
};
