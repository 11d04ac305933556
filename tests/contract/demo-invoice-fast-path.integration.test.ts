import { join } from 'node:path';
import { startDemoAccountingServer } from '../../demo/start';
import { httpAccountingSystem } from '../../infra/accounting/http-client';
import { tempDir } from '../support/test-service';

type Sent = { status: number; contentType: string | null; etag: string | null; body: Record<string, unknown> };

/**
 * `POST /tenants/{tenant}/invoices` in its plain form (`Content-Type: application/json`) is answered
 * beside Express; the same call with a charset goes through Express (whose answers carry an ETag,
 * which tells the two apart here). Every outcome must be the same either way.
 */
describe('The demonstration accounting system: invoices created beside Express answer as through it', () => {
  const dbPath = join(tempDir('accounting-fast'), 'demo-accounting.sqlite');
  let server: { url: string; close(): Promise<void> };
  let tenantId: string;
  let contactId: string;
  let n = 0;
  const fresh = (label: string) => `${label}-${++n}`;
  const invoiceBody = (reference: string) => ({
    contactId,
    reference,
    date: '2026-01-01',
    dueDate: '2026-01-15',
    currency: 'GBP',
    status: 'approved',
    lines: [{ description: 'Seats', quantity: '3', unitAmount: '10.3333', accountCode: '200' }],
  });
  const post = async (fast: boolean, options: { tenant?: string; key?: string | null; body: string }): Promise<Sent> => {
    const headers: Record<string, string> = { 'Content-Type': fast ? 'application/json' : 'application/json; charset=utf-8' };
    if (options.key !== null) headers['Idempotency-Key'] = options.key ?? fresh('inv');
    const response = await fetch(`${server.url}/tenants/${options.tenant ?? tenantId}/invoices`, { method: 'POST', headers, body: options.body });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      etag: response.headers.get('etag'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  /** The same call both ways: what each answered, with the path that answered it checked. */
  const both = async (options: { tenant?: string; key?: string | null; body: (fast: boolean) => string }) => {
    const fast = await post(true, { ...options, body: options.body(true) });
    const express = await post(false, { ...options, body: options.body(false) });
    expect(fast.etag).toBeNull();
    expect(express.etag).not.toBeNull();
    expect(fast.contentType).toBe('application/json; charset=utf-8');
    expect(express.contentType).toBe(fast.contentType);
    return { fast, express };
  };

  beforeAll(async () => {
    server = await startDemoAccountingServer({ port: 0, dbPath });
    const system = httpAccountingSystem({ baseUrl: server.url });
    tenantId = (await system.connect('Fast path', 'connect-fast')).tenantId;
    contactId = (await system.tenant(tenantId).createContact({ name: 'Fast Ltd', contactNumber: 'F-1' }, 'contact-fast')).id;
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates the same invoice, and answers a repeat of the same key and body with the first answer', async () => {
    const { fast, express } = await both({ body: (isFast) => JSON.stringify(invoiceBody(isFast ? 'fast' : 'express')) });
    expect(fast.status).toBe(201);
    expect(express.status).toBe(201);
    const comparable = ({ id: _id, number: _number, reference: _reference, updatedAt: _updatedAt, ...rest }: Record<string, unknown>) => rest;
    expect(comparable(fast.body)).toEqual(comparable(express.body));
    // 3 × 10.3333 = 30.9999, tax 10 % = 3.1000 (rounded half up at 4 places), total 34.0999.
    expect(fast.body).toMatchObject({ reference: 'fast', subtotal: '30.9999', total: '34.0999', status: 'approved' });

    const body = JSON.stringify(invoiceBody('again'));
    const first = await post(true, { key: 'inv-again', body });
    expect((await post(true, { key: 'inv-again', body })).body).toEqual(first.body);
    expect((await post(false, { key: 'inv-again', body })).body).toEqual(first.body);
  });

  it('refuses the same way: a key reused for another body, no key, an unknown tenant, an invalid or unparsable body', async () => {
    const reused = await both({ key: 'inv-reused', body: (isFast) => JSON.stringify(invoiceBody(isFast ? 'one' : 'other')) });
    // The first call (the fast one) made it; the second, another body under that key, is refused.
    expect(reused.fast.status).toBe(201);
    expect(reused.express).toMatchObject({ status: 422, body: { error: { code: 'idempotency_key_reused' } } });
    expect((await post(true, { key: 'inv-reused', body: JSON.stringify(invoiceBody('third')) })).body).toEqual(reused.express.body);

    const refusals: { key?: string | null; tenant?: string; body: string; status: number; code: string }[] = [
      { key: null, body: JSON.stringify(invoiceBody('x')), status: 400, code: 'idempotency_key_required' },
      { tenant: 'demo_unknown', body: JSON.stringify(invoiceBody('x')), status: 404, code: 'tenant_not_found' },
      { body: JSON.stringify({ ...invoiceBody('x'), lines: 'none' }), status: 400, code: 'validation_failed' },
      { body: JSON.stringify({ ...invoiceBody('x'), lines: [] }), status: 400, code: 'validation_failed' },
      { body: '{"contactId": ', status: 500, code: 'internal' },
      { body: '"a string"', status: 500, code: 'internal' },
    ];
    for (const { status, code, ...call } of refusals) {
      const { fast, express } = await both({ ...call, body: () => call.body });
      expect(fast).toMatchObject({ status, body: { error: { code } } });
      expect(fast.body).toEqual(express.body);
      expect(fast.status).toBe(express.status);
    }
  });

  it('leaves the call to Express while a fault is set up', async () => {
    await fetch(`${server.url}/control/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'refuse', pathPrefix: '/tenants/', status: 409, code: 'injected', message: 'Refused here.' }),
    });
    const refused = await post(true, { body: JSON.stringify(invoiceBody('fault')) });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'injected', message: 'Refused here.' } } });
    const next = await post(true, { body: JSON.stringify(invoiceBody('after')) });
    expect(next.status).toBe(201);
    expect(next.etag).toBeNull();
  });
});
