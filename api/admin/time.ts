import type { Router } from 'express';
import { z } from 'zod';
import { organisationCommand } from '../../commands/plumbing/organisation-command';
import type { ApiDeps } from '../deps';
import { type RouteRegistry, route } from '../route';
import { adminCaller } from './admin-caller';
import { findOrganisation } from './organisations';

const cpiObject = z
  .object({ object: z.literal('cpi'), organisation: z.string(), year: z.number().int(), percent: z.string() })
  .meta({ id: 'Cpi' });

const testClockObject = z
  .object({ object: z.literal('test_clock'), frozen_time: z.string(), status: z.enum(['ready']) })
  .meta({ id: 'TestClock' });

/** The operator's hold on time: CPI percentages for renewals, and a sandbox's test clock. */
export const timeRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  const base = { tag: 'Organisations', auth: 'admin', method: 'post' } as const;
  route(
    router,
    registry,
    {
      ...base,
      path: '/admin/v1/organisations/{org}/cpi',
      operationId: 'recordCpi',
      summary: 'Record the CPI percentage of a year (cpi_enabled subscriptions rise by the latest at renewal)',
      body: z.strictObject({ year: z.number().int(), percent: z.union([z.string(), z.number()]) }),
      status: 201,
      response: cpiObject,
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      const { events } = await organisationCommand(deps, organisation.id, { type: 'RecordCpi', year: body.year, percent: String(body.percent) }, adminCaller(req), organisation);
      const recorded = events[0]?.type === 'CpiRecorded' ? events[0].data : null;
      if (!recorded) throw new Error('the CPI was not recorded');
      return { body: { object: 'cpi' as const, organisation: organisation.id, year: recorded.year, percent: recorded.percent } };
    },
  );

  route(
    router,
    registry,
    {
      ...base,
      path: '/admin/v1/organisations/{org}/clock/advance',
      operationId: 'advanceTestClock',
      summary: 'Advance a sandbox’s test clock to midday of a date, stepping through every start, renewal and end due on the way',
      body: z.strictObject({ date: z.string() }),
      status: 200,
      response: testClockObject,
      errors: [409],
    },
    async ({ req, body, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      return { body: await deps.testClock.advance(organisation.id, body.date, adminCaller(req)) };
    },
  );
};
