import type { Request, Router } from 'express';
import { z } from 'zod';
import { connectAccounting } from '../../../commands/accounting/connect-accounting';
import { openSandbox } from '../../../commands/sandbox/open-sandbox';
import { organisationCommand } from '../../../commands/plumbing/organisation-command';
import { CREDIT_NOTES } from '../../../projections/read-models/credit-notes';
import { CUSTOMERS } from '../../../projections/read-models/customers';
import { INVOICES } from '../../../projections/read-models/invoices';
import type { OrganisationDoc } from '../../../projections/read-models/organisations';
import { SUBSCRIPTIONS } from '../../../projections/read-models/subscriptions';
import { createLiveOrganisation, findOrganisation, resetSandboxNow } from '../../admin/organisations';
import type { ApiDeps } from '../../deps';
import { invalidParameter } from '../../errors';
import { listOrganisations, organisationsQuery } from '../../object-reads';
import { readAfterWrite } from '../../read-after-write';
import { createOrganisationBody, sandboxCopyBody } from '../../schemas/organisation';
import { parseOrThrow } from '../../validation';
import { command, page, type PageLoader } from '../page';
import { consoleCaller } from '../session';
import { formQuery, pageTrail } from './paging';

export const organisationPath = (organisationId: string, rest = ''): string => `/console/organisations/${organisationId}${rest}`;

/** The organisation a page under `/organisations/{org}` belongs to, or the 404 page. */
export const organisationOf = (deps: ApiDeps, req: Request): Promise<OrganisationDoc> => findOrganisation(deps, req.params.org as string);

/** What a sandbox holds that a reset removes, counted before and after to say what it did. */
const HELD = [
  [SUBSCRIPTIONS, 'subscription'],
  [CUSTOMERS, 'customer'],
  [INVOICES, 'invoice'],
  [CREDIT_NOTES, 'credit note'],
] as const;

const held = (deps: ApiDeps, organisationId: string) =>
  Promise.all(HELD.map(([collection]) => deps.readStore.count(collection, [{ field: '_organisation', eq: organisationId }])));

const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

export const organisationPages = (router: Router, deps: ApiDeps): void => {
  const organisations: PageLoader = async (req, form) => {
    const { query, trail } = pageTrail(req);
    const list = await listOrganisations(deps, parseOrThrow(organisationsQuery, { ...query, livemode: 'true' }));
    return { view: 'organisations', title: 'Organisations', data: { list, trail, form } };
  };
  page(router, '/organisations', organisations);
  command(router, '/organisations', 'create-organisation', organisations, async (req) => {
    const body = parseOrThrow(createOrganisationBody, formQuery(req.body, ['name', 'timezone', 'default_currency']));
    const created = await createLiveOrganisation(deps, consoleCaller(req), body);
    return { notice: `Organisation ${created.name} created.`, redirect: organisationPath(created.id) };
  });

  const overview: PageLoader = async (req, form) => {
    const organisation = await organisationOf(deps, req);
    const clock = organisation.livemode ? null : deps.clocks.testClock(organisation.id);
    return { view: 'organisation', title: organisation.name, organisation, data: { clock: clock?.toISOString() ?? null, form } };
  };
  page(router, '/organisations/:org', overview);

  const openSandboxPage: PageLoader = async (req, form) => ({ view: 'sandbox', title: 'Sandbox', organisation: await organisationOf(deps, req), data: { form } });
  page(router, '/organisations/:org/sandbox', openSandboxPage);
  command(router, '/organisations/:org/sandbox', 'open-sandbox', openSandboxPage, async (req) => {
    const live = await organisationOf(deps, req);
    const { position, state } = await openSandbox(deps, consoleCaller(req), live, parseOrThrow(sandboxCopyBody, {}).copy);
    await deps.waitForProjections(position);
    if (state.status !== 'open') throw new Error('sandbox not opened');
    return { notice: 'Sandbox opened, with the settings and catalogue copied.', redirect: organisationPath(state.organisationId) };
  });

  command(router, '/organisations/:org/clock/advance', 'advance-clock', overview, async (req) => {
    const sandbox = await organisationOf(deps, req);
    const { date } = parseOrThrow(z.strictObject({ date: z.string() }), formQuery(req.body, ['date']));
    const before = await deps.readStore.count(INVOICES, [{ field: '_organisation', eq: sandbox.id }]);
    const advanced = await deps.testClock.advance(sandbox.id, date, consoleCaller(req));
    const raised = (await deps.readStore.count(INVOICES, [{ field: '_organisation', eq: sandbox.id }])) - before;
    return { notice: `Clock advanced to ${advanced.frozen_time}: ${counted(raised, 'invoice')} raised.`, redirect: organisationPath(sandbox.id) };
  });

  command(router, '/organisations/:org/reset', 'reset-sandbox', overview, async (req) => {
    const sandbox = await organisationOf(deps, req);
    const { confirm, ...copy } = formQuery(req.body, ['confirm', 'settings', 'catalogue', 'customers', 'subscriptions']);
    if (confirm !== sandbox.name) throw invalidParameter('confirm', `Type the sandbox's name, ${sandbox.name}, to confirm the reset.`);
    const flags = Object.fromEntries(Object.keys(copy).map((field) => [field, true]));
    const body = parseOrThrow(sandboxCopyBody, { copy: { settings: false, catalogue: false, customers: false, subscriptions: false, ...flags } });
    const before = await held(deps, sandbox.id);
    await resetSandboxNow(deps, consoleCaller(req), sandbox, body.copy);
    const after = await held(deps, sandbox.id);
    const removed = HELD.map(([, noun], i) => counted(Math.max(before[i]! - after[i]!, 0), noun)).join(', ');
    return { notice: `Sandbox reset: removed ${removed}.`, redirect: organisationPath(sandbox.id) };
  });

  const accounting: PageLoader = async (req, form) => {
    const organisation = await organisationOf(deps, req);
    return { view: 'accounting', title: 'Accounting', organisation, data: { form } };
  };
  page(router, '/organisations/:org/accounting', accounting);
  command(router, '/organisations/:org/accounting/connect', 'connect', accounting, async (req) => {
    const organisation = await organisationOf(deps, req);
    const { position } = await connectAccounting(deps, consoleCaller(req), organisation);
    await readAfterWrite(deps, position, () => Promise.resolve());
    return { notice: 'Connected to the accounting system.', redirect: organisationPath(organisation.id, '/accounting') };
  });
  command(router, '/organisations/:org/accounting/disconnect', 'disconnect', accounting, async (req) => {
    const organisation = await organisationOf(deps, req);
    const { position } = await organisationCommand(deps, organisation.id, { type: 'DisconnectAccounting' }, consoleCaller(req), organisation);
    await readAfterWrite(deps, position, () => Promise.resolve());
    return { notice: 'Disconnected from the accounting system.', redirect: organisationPath(organisation.id, '/accounting') };
  });
};
