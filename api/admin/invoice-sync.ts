import type { Router } from 'express';
import { z } from 'zod';
import { invoiceCommand } from '../../commands/plumbing/invoice-command';
import { INVOICES, type InvoiceDoc } from '../../projections/read-models/invoices';
import type { ApiDeps } from '../deps';
import { findOwned } from '../find-owned';
import { publicView } from '../paging';
import { readAfterWrite } from '../read-after-write';
import { type RouteRegistry, route } from '../route';
import { invoiceObject } from '../schemas/subscription';
import { adminCaller } from './admin-caller';
import { findOrganisation } from './organisations';

export const invoiceSyncRoutes = (router: Router, registry: RouteRegistry, deps: ApiDeps): void => {
  route(
    router,
    registry,
    {
      method: 'post',
      path: '/admin/v1/organisations/{org}/invoices/{id}/retry_sync',
      operationId: 'retryInvoiceSync',
      summary: 'Retry an invoice’s push',
      description: `
        Queues another push of an invoice the accounting system refused (\`accounting.sync_status\`
        \`failed\`), once the cause is fixed (a contact archived, an account unmapped…). The accounting
        sync worker pushes it; the invoice answered is \`pending\` until then. Pushes that failed for a
        passing reason (5xx, timeout) are retried by the worker without this.

        **Errors:** \`404 invoice_not_found\`; \`409 invoice_sync_not_failed\`: the invoice was not refused.
      `,
      tag: 'Invoices',
      auth: 'admin',
      body: z.strictObject({}),
      examples: [{ summary: 'No fields', value: {} }],
      status: 200,
      response: invoiceObject,
      errors: [404, 409],
    },
    async ({ req, params }) => {
      const organisation = await findOrganisation(deps, params.org!);
      await findOwned<InvoiceDoc>(deps, INVOICES, organisation.id, params.id!, 'invoice_not_found');
      const { position } = await invoiceCommand(
        deps,
        params.id!,
        { type: 'RequestInvoiceSyncRetry', invoiceId: params.id! },
        adminCaller(req),
        { id: organisation.id, livemode: organisation.livemode },
      );
      return { body: await readAfterWrite(deps, position, async () => publicView((await deps.readStore.get<InvoiceDoc>(INVOICES, params.id!))!)) };
    },
  );
};
