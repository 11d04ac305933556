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
      summary: 'Record a year’s CPI',
      description: `
        Records the consumer price index percentage of a year. At each renewal of a \`cpi_enabled\`
        subscription its prices and meter rates rise by the latest year's percentage (each unit price
        rounded to 4 places first). Recording a year again replaces its percentage.

        **Errors:** \`422 invalid_parameter\` for a year outside 1900 to 9999
        or a percentage outside -99.99 to 100.00 or with more than 2 decimal places.
      `,
      body: z.strictObject({ year: z.number().int(), percent: z.union([z.string(), z.number()]) }),
      examples: [{ summary: 'CPI of 2026', value: { year: 2026, percent: '3.50' } }],
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
      summary: 'Advance a sandbox’s test clock',
      description: `
        Moves the sandbox's clock to midday of \`date\` in its timezone, at most 366 days ahead, and steps
        through every start, renewal, end and usage close due on the way, in order, pushing their
        invoices to the demonstration organisation. Answers once the advance has been applied. From then
        on everything in the sandbox, API calls included, happens at the clock's time and the clock
        stands still until the next advance (or a reset).

        **Errors**
        - \`409 invalid_state\`: another advance of this sandbox is running.
        - \`422 invalid_parameter\`: not a sandbox, \`date\` not \`YYYY-MM-DD\`, before the clock's date, or more than 366 days ahead.
      `,
      body: z.strictObject({ date: z.string() }),
      examples: [{ summary: 'To a renewal date', value: { date: '2026-04-15' } }],
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
