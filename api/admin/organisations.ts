import type { Router } from 'express';
import { changeOrganisationSettings } from '../../commands/organisation/change-organisation-settings';
import { createOrganisation } from '../../commands/organisation/create-organisation';
import { openSandbox } from '../../commands/sandbox/open-sandbox';
import { resetSandbox } from '../../commands/sandbox/reset-sandbox';
import { sandboxWriteGateOf } from '../../commands/sandbox/sandbox-write-gate';
import { organisationCommand } from '../../commands/plumbing/organisation-command';
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
      summary: 'Create a live organisation',
      body: createOrganisationBody,
      status: 201,
    },
    async ({ req, body }) => {
      const id = newId('organisation');
      const { position } = await createOrganisation(deps, adminCaller(req), {
        organisationId: id,
        livemode: true,
        liveOrganisationId: null,
        settings: toNewOrganisationSettings(body),
      });
      return { body: await readAfterWrite(deps, position, () => findOrganisation(deps, id)) };
    },
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
      body: updateOrganisationBody,
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
      summary: 'Retrieve an organisation, with its sandbox',
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
      summary: 'Open the one sandbox of a live organisation',
      body: sandboxCopyBody,
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
      summary: 'Empty a sandbox (keeping its test keys, webhook endpoints, accounting connection and API settings) and copy again what is asked',
      body: sandboxCopyBody,
      status: 200,
      errors: [409],
    },
    async ({ req, body, params }) => {
      const sandbox = await findOrganisation(deps, params.org!);
      // Never while its test clock is being advanced; the clock returns to real time.
      if (!deps.clocks.beginAdvance(sandbox.id)) throw advanceRunning();
      let position: bigint;
      try {
        // Once the writes to the sandbox under way are done; those that come meanwhile wait for it.
        position = await sandboxWriteGateOf(deps.store).resetting(sandbox.id, async () => {
          const reset = await resetSandbox(deps, adminCaller(req), sandbox.id, body.copy);
          deps.clocks.setTestClock(sandbox.id, null);
          await deps.waitForProjections(reset.resetAt);
          await forgetIdempotencyRecords(deps, sandbox.id, reset.generation);
          return reset.position;
        });
      } finally {
        deps.clocks.endAdvance(sandbox.id);
      }
      return { body: await readAfterWrite(deps, position, () => findOrganisation(deps, sandbox.id)) };
    },
  );
};
