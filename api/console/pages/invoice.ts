import type { Router } from 'express';
import { invoiceCommand } from '../../../commands/plumbing/invoice-command';
import { lineUsageEvents } from '../../admin/audit';
import type { ApiDeps } from '../../deps';
import { getObject, INVOICE_READ } from '../../object-reads';
import { listQuery } from '../../paging';
import { parseOrThrow } from '../../validation';
import { command, page, type PageLoader } from '../page';
import { consoleCaller } from '../session';
import { organisationOf, organisationPath } from './organisation';
import { pageTrail } from './paging';
import { historyOf } from './history';

export const invoicePages = (router: Router, deps: ApiDeps): void => {
  const invoicePage: PageLoader = async (req, form) => {
    const organisation = await organisationOf(deps, req);
    const invoice = await getObject<Record<string, unknown>>(deps, INVOICE_READ, organisation.id, req.params.id as string);
    const history = await historyOf(deps, organisation.id, invoice.id as string, req);
    return { view: 'invoice', title: `Invoice ${invoice.id as string}`, organisation, data: { invoice, history, form } };
  };
  page(router, '/organisations/:org/invoices/:id', invoicePage);

  command(router, '/organisations/:org/invoices/:id/retry-sync', 'retry-sync', invoicePage, async (req) => {
    const organisation = await organisationOf(deps, req);
    const id = req.params.id as string;
    await getObject(deps, INVOICE_READ, organisation.id, id);
    const { position } = await invoiceCommand(deps, id, { type: 'RequestInvoiceSyncRetry', invoiceId: id }, consoleCaller(req), { id: organisation.id, livemode: organisation.livemode });
    await deps.waitForProjections(position);
    return { notice: 'Sync retry requested: the accounting sync worker pushes the invoice again.', redirect: organisationPath(organisation.id, `/invoices/${id}`) };
  });

  page(router, '/organisations/:org/invoices/:id/lines/:line/usage-events', async (req) => {
    const organisation = await organisationOf(deps, req);
    const invoice = await getObject<{ id: string; lines: { id: string; description: string }[] }>(deps, INVOICE_READ, organisation.id, req.params.id as string);
    const { query, trail } = pageTrail(req);
    const events = await lineUsageEvents(deps, organisation, invoice.id, req.params.line as string, parseOrThrow(listQuery({}), query));
    const line = invoice.lines.find((l) => l.id === req.params.line)!;
    return { view: 'usage-events', title: 'Usage events', organisation, data: { invoice, line, events, trail } };
  });
};
