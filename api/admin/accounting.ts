import type { Router } from 'express';
import { z } from 'zod';
import { connectAccounting } from '../../commands/accounting/connect-accounting';
import { organisationCommand } from '../../commands/plumbing/organisation-command';
import type { OrganisationState } from '../../domain/organisation/state';
import type { ApiDeps } from '../deps';
import { readAfterWrite } from '../read-after-write';
import { type RouteRegistry, route } from '../route';
import { adminCaller } from './admin-caller';
import { findOrganisation } from './organisations';

const connectionObject = z
  .object({
    object: z.literal('accounting_connection'),
    organisation: z.string(),
    connected: z.boolean(),
    tenant_id: z.string().nullable(),
    accounts: z.array(z.object({ code: z.string(), name: z.string(), type: z.string() })),
    revenue_account: z.string().nullable(),
    usage_revenue_account: z.string().nullable(),
  })
  .meta({ id: 'AccountingConnection' });

/** The connection as the command that changed it left the organisation. */
const connectionView = (organisationId: string, state: OrganisationState) => {
  const accounting = state.status === 'open' ? state.accounting : null;
  return {
    object: 'accounting_connection' as const,
    organisation: organisationId,
    connected: accounting !== null,
    tenant_id: accounting?.tenantId ?? null,
    accounts: accounting?.accounts ?? [],
    revenue_account: accounting?.revenueAccount ?? null,
    usage_revenue_account: accounting?.usageRevenueAccount ?? null,
  };
};

export const accountingRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Accounting', auth: 'admin', status: 200, response: connectionObject, errors: [409, 502] } as const;
  const empty = z.strictObject({});

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/accounting/connect',
      operationId: 'connectAccounting',
      summary: 'Connect the accounting system',
      description: `
        Connects the organisation to a demonstration organisation of the configured accounting system
        (a sandbox accepts no other, so it can never write to real books) and answers with the
        connection and the accounts it offers. Map the revenue accounts next.

        **Errors:** \`502 accounting_error\`: the accounting system refused or could not be reached.
      `,
      body: empty,
      examples: [{ summary: 'No fields', value: {} }],
    },
    async ({ req, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { state, position } = await connectAccounting(deps, adminCaller(req), organisation);
      return { body: await readAfterWrite(deps, position, () => Promise.resolve(connectionView(organisation.id, state))) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/accounting/disconnect',
      operationId: 'disconnectAccounting',
      summary: 'Disconnect the accounting system',
      description: `
        Removes a live organisation's connection: its subscriptions are then refused with
        \`409 accounting_not_connected\` until it connects again.

        **Errors:** \`409 invalid_state\`: a sandbox keeps its accounting connection (reset it instead).
      `,
      body: empty,
      examples: [{ summary: 'No fields', value: {} }],
    },
    async ({ req, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { state, position } = await organisationCommand(deps, organisation.id, { type: 'DisconnectAccounting' }, adminCaller(req), organisation);
      return { body: await readAfterWrite(deps, position, () => Promise.resolve(connectionView(organisation.id, state))) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'put',
      path: '/admin/v1/organisations/{org}/accounting/accounts',
      operationId: 'mapAccounts',
      summary: 'Map the revenue accounts',
      description: `
        Sets the accounting system's account codes that invoice lines are booked to: \`revenue\` for
        subscription and charge lines, \`usage_revenue\` for usage lines (required once the organisation
        has a meter). Until they are mapped, subscriptions are refused with
        \`409 accounting_accounts_not_mapped\`.

        **Errors:** \`409 accounting_not_connected\`; \`422 invalid_parameter\`: a code that is not one of
        the connection's revenue accounts.
      `,
      body: z.strictObject({ revenue: z.string().min(1), usage_revenue: z.string().min(1).nullable().default(null) }),
      examples: [{ summary: 'Sales and usage revenue', value: { revenue: '200', usage_revenue: '270' } }],
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { state, position } = await organisationCommand(
        deps,
        organisation.id,
        { type: 'MapAccounts', revenue: body.revenue, usageRevenue: body.usage_revenue },
        adminCaller(req),
        organisation,
      );
      return { body: await readAfterWrite(deps, position, () => Promise.resolve(connectionView(organisation.id, state))) };
    },
  );
};
