import type { Router } from 'express';
import { recordUsage } from '../../commands/usage/record-usage';
import type { ApiDeps } from '../deps';
import type { RouteRegistry } from '../route';
import { acceptedUsageEventsBody, toUsageEventBatch, toUsageRequest, usageEventBatchObject, usageEventsBody } from '../schemas/usage';
import { apiCaller } from './api-caller';
import { publicRoute } from './public-route';

/** `POST /v1/usage_events`: 1 to 100 events, one request against the rate limit; answered once every append has committed. */
export const usageRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  publicRoute(
    router,
    registry,
    deps,
    {
      method: 'post',
      path: '/v1/usage_events',
      operationId: 'reportUsageEvents',
      summary: 'Report usage events (1 to 100); 207 when some are rejected, with a result per event in the order sent',
      tag: 'Usage',
      auth: 'api_key',
      scope: 'usage:write',
      idempotencyKey: 'optional',
      body: usageEventsBody,
      acceptedBody: acceptedUsageEventsBody,
      status: 200,
      alsoStatus: 207,
      alsoStatusMeaning: 'some events were rejected (each result says which and why)',
      response: usageEventBatchObject,
    },
    async ({ req, body }) => {
      const events = toUsageRequest(body);
      const { id, livemode } = req.auth!.organisation;
      const { outcomes, position } = await recordUsage(deps, apiCaller(req), { id, livemode }, events);
      // Read-your-writes like every write; the answer itself is built from the decision, not the read model.
      await deps.waitForProjections(position);
      const batch = toUsageEventBatch(events, outcomes);
      return { status: batch.rejected > 0 ? 207 : 200, body: batch };
    },
  );
};
