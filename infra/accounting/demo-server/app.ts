import { createHash } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import { z } from 'zod';
import type { SqliteDatabase } from '../../sqlite/open-database';
import { type Fault, faultInjector } from './faults';
import { Ledger, LedgerRefusal } from './ledger';

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
export const createDemoAccountingApp = (db: SqliteDatabase): Express => {
  const ledger = new Ledger(db);
  const faults = faultInjector();
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
    const key = req.header('Idempotency-Key');
    if (!key) throw new LedgerRefusal(400, 'idempotency_key_required', 'Send an Idempotency-Key with every create.');
    const fingerprint = createHash('sha256').update(`${req.method} ${req.path}\n${JSON.stringify(req.body)}`).digest('hex');
    const answer = await ledger.transaction(() => {
      const earlier = ledger.remembered(tenantId, key, fingerprint);
      if (earlier) return earlier;
      const body = work(req, tenantId);
      ledger.remember(tenantId, key, fingerprint, status, body);
      return { status, body };
    });
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
  app.post('/tenants/:tenant/invoices', create(201, (req, t) => ledger.createInvoice(t, invoiceBody.parse(req.body))));
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
    if (error instanceof LedgerRefusal) {
      res.status(error.status).json({ error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } });
    } else if (error instanceof z.ZodError) {
      res.status(400).json({ error: { code: 'validation_failed', message: error.issues[0]?.message ?? 'Invalid request.' } });
    } else {
      res.status(500).json({ error: { code: 'internal', message: 'The demonstration accounting system failed.' } });
    }
  };
  app.use(errors);
  return app;
};
