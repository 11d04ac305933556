import type { Router } from 'express';
import type { z } from 'zod';
import type { Caller } from '../../commands/plumbing/metadata';
import { changeOrganisationSettings } from '../../commands/organisation/change-organisation-settings';
import { createOrganisation } from '../../commands/organisation/create-organisation';
import { openSandbox } from '../../commands/sandbox/open-sandbox';
import { resetSandbox } from '../../commands/sandbox/reset-sandbox';
import { sandboxWriteGateOf } from '../../commands/sandbox/sandbox-write-gate';
import { organisationCommand } from '../../commands/plumbing/organisation-command';
import type { SandboxCopy } from '../../domain/organisation/events';
import { latestPosition } from '../../commands/plumbing/positions';
import { advanceRunning } from '../../domain/organisation/time';
import { newId } from '../../infra/ids';
import { API_KEYS, type ApiKeyDoc } from '../../projections/read-models/api-keys';
import { ORGANISATIONS, type OrganisationDoc } from '../../projections/read-models/organisations';
import type { ApiDeps } from '../deps';
import { notFound } from '../errors';
import { readAfterWrite } from '../read-after-write';
import { type RouteRegistry, route } from '../route';
import {
  createOrganisationBody,
  organisationObject,
  sandboxCopyBody,
  toNewOrganisationSettings,
  toOrganisationSettings,
  updateOrganisationBody,
} from '../schemas/organisation';
import { idempotencyScope } from '../public/idempotency';
import { adminCaller } from './admin-caller';

export const findOrganisation = async (deps: ApiDeps, id: string): Promise<OrganisationDoc> => {
  const organisation = await deps.readStore.get<OrganisationDoc>(ORGANISATIONS, id);
  if (!organisation) throw notFound('organisation_not_found', `No organisation with id ${id}.`, 'org');
  return organisation;
};

/**
 * A reset frees the sandbox's Idempotency-Keys: its records are scoped by generation, so once the
 * reset is in the read models no request reaches the previous generation's. Those of every API key
 * it has (read once the reset's position is in the read models, so a key made before it is seen) are
 * then removed; a crash before this runs leaves records nobody reads, purged when they expire.
 */
const forgetIdempotencyRecords = async (deps: ApiDeps, organisationId: string, generation: number): Promise<void> => {
  const keys = await deps.readStore.findAll<ApiKeyDoc>(API_KEYS, [{ field: '_organisation', eq: organisationId }]);
  for (const key of keys) await deps.idempotency.forget(idempotencyScope(key.id, generation - 1));
};

/**
 * Empties a sandbox and copies again what `copy` asks, once the writes to it under way are done
 * (those that come meanwhile wait for it); never while its test clock is being advanced, and its
 * clock returns to real time. Answers the sandbox as the read models then have it.
 */
export const resetSandboxNow = async (deps: ApiDeps, caller: Caller, sandbox: OrganisationDoc, copy: SandboxCopy): Promise<OrganisationDoc> => {
  if (!deps.clocks.beginAdvance(sandbox.id)) throw advanceRunning();
  let position: bigint;
  try {
    position = await sandboxWriteGateOf(deps.store).resetting(sandbox.id, async () => {
      const reset = await resetSandbox(deps, caller, sandbox.id, copy);
      deps.clocks.setTestClock(sandbox.id, null);
      await deps.waitForProjections(reset.resetAt);
      await forgetIdempotencyRecords(deps, sandbox.id, reset.generation);
      return reset.position;
    });
  } finally {
    deps.clocks.endAdvance(sandbox.id);
  }
  return readAfterWrite(deps, position, () => findOrganisation(deps, sandbox.id));
};

/** A new live organisation with these settings, as the read models then have it. */
export const createLiveOrganisation = async (deps: ApiDeps, caller: Caller, body: z.infer<typeof createOrganisationBody>): Promise<OrganisationDoc> => {
  const id = newId('organisation');
  const { position } = await createOrganisation(deps, caller, { organisationId: id, livemode: true, liveOrganisationId: null, settings: toNewOrganisationSettings(body) });
  return readAfterWrite(deps, position, () => findOrganisation(deps, id));
};

export const organisationRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Organisations', auth: 'admin', response: organisationObject } as const;

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations',
      operationId: 'createOrganisation',
      summary: 'Create an organisation',
      description: `
        Creates a live organisation with its name, timezone (IANA, e.g. \`Europe/London\`) and default
        currency; every other setting takes its default (\`renewal_lead_days\` 7, \`usage_grace_days\` 1,
        \`payment_terms_days\` 14, \`unit_change_document\` \`separate\`, Setup Mode and contact creation
        off). Next: connect the accounting system, map its accounts, build the catalogue and create an
        API key.

        **Errors:** \`422 invalid_parameter\` names a missing or invalid field (an unknown timezone, a
        currency that is not three capital letters).
      `,
      body: createOrganisationBody,
      examples: [
        { summary: 'A UK organisation', value: { name: 'Acme Ltd', timezone: 'Europe/London', default_currency: 'GBP' } },
        {
          summary: 'With its API settings',
          value: { name: 'Globex GmbH', timezone: 'Europe/Berlin', default_currency: 'EUR', can_create_accounting_contacts: true, renewal_lead_days: 10, unit_change_document: 'amend' },
        },
      ],
      status: 201,
    },
    async ({ req, body }) => ({ body: await createLiveOrganisation(deps, adminCaller(req), body) }),
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'patch',
      path: '/admin/v1/organisations/{org}',
      operationId: 'updateOrganisation',
      summary: 'Change an organisation’s settings',
      description: `
        Changes the settings sent and leaves the others as they are. \`plan_limits\` sets the customer and
        subscription counts the organisation's own plan allows (\`null\`: no limit); past them, creations
        are refused with \`403 plan_limit_reached\`. A sandbox is never counted and never in Setup Mode.

        **Errors**
        - \`422 invalid_parameter\`: a field is not valid, or \`setup_mode: true\` on a sandbox.
      `,
      body: updateOrganisationBody,
      examples: [
        { summary: 'Let the API create customers', value: { can_create_accounting_contacts: true } },
        { summary: 'Leave Setup Mode and limit the plan', value: { setup_mode: false, plan_limits: { customers: 500, subscriptions: 1000 } } },
      ],
      status: 200,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      let { position } = await changeOrganisationSettings(deps, adminCaller(req), organisation, toOrganisationSettings(body));
      if (body.plan_limits) {
        const limits = await organisationCommand(deps, organisation.id, { type: 'SetPlanLimits', limits: body.plan_limits }, adminCaller(req), organisation);
        position = latestPosition(position, limits.position);
      }
      return { body: await readAfterWrite(deps, position, () => findOrganisation(deps, organisation.id)) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'get',
      path: '/admin/v1/organisations/{org}',
      operationId: 'getOrganisation',
      summary: 'Retrieve an organisation',
      description: `
        An organisation with every setting, its accounting connection, and \`sandbox\`: the id of its
        sandbox, or null.

        **Errors:** \`404 organisation_not_found\`.
      `,
      status: 200,
    },
    async ({ params }) => ({ body: await findOrganisation(deps, params.org!) }),
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/sandbox',
      operationId: 'createSandbox',
      summary: 'Open the sandbox',
      description: `
        Opens the one sandbox of a live organisation: a separate organisation (\`livemode: false\`) for
        testing, with its own \`service_test_\` keys and webhook endpoints, invoicing a demonstration
        organisation of the accounting system only. \`copy\` chooses what it starts with: settings and
        catalogue (default on), customers and subscriptions (default off); ticking one ticks what it
        needs. Reported usage is never copied.

        **Errors**
        - \`409 sandbox_exists\`: the organisation already has its sandbox.
        - \`422 invalid_parameter\`: the organisation is itself a sandbox.
      `,
      body: sandboxCopyBody,
      examples: [
        { summary: 'Settings and catalogue (the defaults)', value: {} },
        { summary: 'Everything, subscriptions included', value: { copy: { subscriptions: true } } },
      ],
      status: 201,
      errors: [409],
    },
    async ({ req, body, params }) => {
      const live = await findOrganisation(deps, params.org!);
      const { position, state } = await openSandbox(deps, adminCaller(req), live, body.copy);
      if (state.status !== 'open') throw new Error('sandbox not opened');
      return { body: await readAfterWrite(deps, position, () => findOrganisation(deps, state.organisationId)) };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      method: 'post',
      path: '/admin/v1/organisations/{org}/reset',
      operationId: 'resetSandbox',
      summary: 'Reset a sandbox',
      description: `
        Empties a sandbox and copies again from its live organisation what \`copy\` asks. Removed:
        customers, subscriptions, invoices, credit notes, idempotency records, reported usage, past
        webhook events and deliveries. Kept: its test API keys, webhook endpoints, accounting connection
        and default accounts, and its API settings. The test clock returns to real time. Keys and
        \`event_id\`s used before the reset may be used again.

        **Errors**
        - \`409 invalid_state\`: an advance of the sandbox's test clock is running.
        - \`422 invalid_parameter\`: the organisation is not a sandbox.
      `,
      body: sandboxCopyBody,
      examples: [
        { summary: 'Settings and catalogue (the defaults)', value: {} },
        { summary: 'Settings, catalogue and customers', value: { copy: { customers: true } } },
      ],
      status: 200,
      errors: [409],
    },
    async ({ req, body, params }) => ({ body: await resetSandboxNow(deps, adminCaller(req), await findOrganisation(deps, params.org!), body.copy) }),
  );
};
