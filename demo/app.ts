import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import { z } from 'zod';
import type { SqliteDatabase } from '../infra/sqlite/open-database';
import { type Fault, faultInjector } from './faults';
import { errorAnswer, remembered } from './answers';
import { invoiceFastPath } from './invoice-fast-path';
import { Ledger } from './ledger';

const send = (res: Response, status: number, body: unknown): void => {
  const failure = res.locals.failAfterCommit as number | undefined;
  if (failure) res.status(failure).json({ error: { code: 'unavailable', message: 'Injected failure after commit.' } });
  else res.status(status).json(body);
};

const line = z.object({ description: z.string(), quantity: z.string(), unitAmount: z.string(), accountCode: z.string() });
const contactBody = z.object({
  name: z.string(),
  contactNumber: z.string(),
  email: z.string().nullable().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
});
const documentBody = {
  contactId: z.string(),
  reference: z.string().nullable(),
  date: z.string(),
  currency: z.string(),
  status: z.enum(['draft', 'awaiting_approval', 'approved']),
  lines: z.array(line),
};
const invoiceBody = z.object({ ...documentBody, dueDate: z.string().nullable() });
const creditNoteBody = z.object(documentBody);
const linesBody = z.object({ lines: z.array(line) });
const amountBody = z.object({ amount: z.string().optional() });
const allocationBody = z.object({ invoiceId: z.string(), amount: z.string() });

const faultSchema = z.object({
  kind: z.enum(['refuse', '5xx', 'slow']),
  method: z.string().optional(),
  pathPrefix: z.string(),
  count: z.number().int().min(1).default(1),
  status: z.number().int().min(400).max(599).optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  delayMs: z.number().int().min(0).max(60_000).optional(),
  afterCommit: z.boolean().optional(),
});

/**
 * The demonstration accounting system's HTTP contract: demonstration organisations (tenants),
 * contacts, invoices, credit notes, payments, an updated-since feed, and control routes for tests.
 */
export const createDemoAccountingApp = (db: SqliteDatabase): RequestListener => {
  const ledger = new Ledger(db);
  const faults = faultInjector();
  const createInvoice = (tenantId: string, body: unknown) => ledger.createInvoice(tenantId, invoiceBody.parse(body));
  const fastPath = invoiceFastPath({ ledger, faultsPending: faults.pending, createInvoice });
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  app.use(faults.middleware);

  const tenant = (req: Request): string => {
    const id = req.params.tenant as string;
    ledger.requireTenant(id);
    return id;
  };

  /** A create that honours Idempotency-Key: the same key and body return the first answer again. */
  const create = (status: number, work: (req: Request, tenantId: string) => unknown) => async (req: Request, res: Response) => {
    const tenantId = req.params.tenant ? tenant(req) : '-';
    const answer = await remembered(ledger, { tenantId, key: req.header('Idempotency-Key'), method: req.method, path: req.path, body: req.body as unknown }, status, () =>
      work(req, tenantId),
    );
    send(res, answer.status, answer.body);
  };
  const change = (work: (req: Request, tenantId: string) => unknown) => async (req: Request, res: Response) => {
    const tenantId = tenant(req);
    send(res, 200, await ledger.transaction(() => work(req, tenantId)));
  };

  app.post('/connections', create(201, (req) => ledger.createTenant(z.object({ label: z.string().default('Demo organisation') }).parse(req.body).label)));
  app.get('/tenants/:tenant/contacts', (req, res) => {
    const query = req.query as { contactNumber?: string; name?: string };
    res.json({ contacts: ledger.findContacts(tenant(req), query) });
  });
  app.post('/tenants/:tenant/contacts', create(201, (req, t) => ledger.createContact(t, contactBody.parse(req.body))));
  app.post('/tenants/:tenant/invoices', create(201, (req, t) => createInvoice(t, req.body)));
  app.get('/tenants/:tenant/invoices/:id', (req, res) => {
    res.json(ledger.invoice(tenant(req), req.params.id));
  });
  app.put('/tenants/:tenant/invoices/:id/lines', change((req, t) => ledger.updateInvoiceLines(t, req.params.id as string, linesBody.parse(req.body).lines)));
  app.post('/tenants/:tenant/invoices/:id/approve', change((req, t) => ledger.approveInvoice(t, req.params.id as string)));
  app.post('/tenants/:tenant/invoices/:id/void', change((req, t) => ledger.voidInvoice(t, req.params.id as string)));
  app.post('/tenants/:tenant/invoices/:id/delete', change((req, t) => ledger.deleteInvoice(t, req.params.id as string)));
  app.post(
    '/tenants/:tenant/invoices/:id/payments',
    create(200, (req, t) => ledger.recordPayment(t, req.params.id as string, amountBody.parse(req.body).amount ?? '')),
  );
  app.post('/tenants/:tenant/credit_notes', create(201, (req, t) => ledger.createCreditNote(t, creditNoteBody.parse(req.body))));
  app.post(
    '/tenants/:tenant/credit_notes/:id/allocations',
    create(200, (req, t) => {
      const { invoiceId, amount } = allocationBody.parse(req.body);
      return ledger.allocate(t, req.params.id as string, invoiceId, amount);
    }),
  );
  app.get('/tenants/:tenant/changes', (req, res) => {
    const since = typeof req.query.since === 'string' ? req.query.since : '1970-01-01T00:00:00.000Z';
    res.json(ledger.updatedSince(tenant(req), since));
  });

  // Control routes: what a person would do in the accounting system's own screens.
  app.post('/control/faults', (req, res) => {
    const fault: Fault = faultSchema.parse(req.body);
    faults.add(fault);
    res.status(201).json({ fault });
  });
  app.delete('/control/faults', (_req, res) => {
    faults.clear();
    res.json({ cleared: true });
  });
  app.post('/control/tenants/:tenant/invoices/:id/approve', change((req, t) => ledger.approveInvoice(t, req.params.id as string)));
  app.post('/control/tenants/:tenant/invoices/:id/send', change((req, t) => ledger.markSent(t, req.params.id as string)));
  app.post(
    '/control/tenants/:tenant/invoices/:id/pay',
    change((req, t) => {
      const invoice = ledger.invoice(t, req.params.id as string);
      return ledger.recordPayment(t, invoice.id, amountBody.parse(req.body).amount ?? invoice.amountDue);
    }),
  );
  app.post('/control/tenants/:tenant/contacts/:id/archive', change((req, t) => ledger.archiveContact(t, req.params.id as string)));

  const errors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    const answer = errorAnswer(error);
    res.status(answer.status).json(answer.body);
  };
  app.use(errors);
  return (req, res) => {
    if (!fastPath(req, res)) app(req, res);
  };
};
