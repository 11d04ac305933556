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
      summary: 'Report usage events',
      description: `
        Reports 1 to 100 usage events against subscriptions whose plans bill meters; the batch counts as
        one request against the rate limit. Usage is totalled per meter and billed in arrears on its own
        invoice once the billing period has ended and the organisation's usage grace days have passed.

        Each event is judged alone: the answer has a result per event, in the order sent (\`created\`,
        \`duplicate\` or \`rejected\` with an \`error\`), and its status is \`200\` when none was rejected,
        \`207\` when any was. \`event_id\` is your id, unique per organisation: sending the same event again
        is answered \`duplicate\` and stored once, so a batch is safe to retry whole.

        Rejection codes: \`subscription_not_found\`, \`meter_not_on_plan\`, \`invalid_quantity\`,
        \`invalid_timestamp\`, \`timestamp_out_of_period\` (before the start, after the end, or in a period
        already billed), \`subscription_not_billable\` (ended and its final usage billed),
        \`event_id_conflict\` (the same \`event_id\` stored with other details).

        **Errors:** \`422 invalid_parameter\` for a malformed batch (no \`events\`, more than 100, an event
        without \`event_id\`, \`subscription\`, \`meter_code\` or \`quantity\`), naming the field, e.g. \`events.3.event_id\`.
      `,
      tag: 'Usage',
      auth: 'api_key',
      scope: 'usage:write',
      idempotencyKey: 'optional',
      body: usageEventsBody,
      examples: [
        {
          summary: 'Two events for one subscription',
          value: {
            events: [
              { event_id: 'req-2026-03-15-0001', subscription: 'sub_8fQ2mZ7kLw3nR5tY1vB9xC4d', meter_code: 'api_calls', quantity: 1200, timestamp: '2026-03-15T10:00:00Z' },
              { event_id: 'req-2026-03-15-0002', subscription: 'sub_8fQ2mZ7kLw3nR5tY1vB9xC4d', meter_code: 'api_calls', quantity: '2050.2500' },
            ],
          },
        },
      ],
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
