import {
  AccountingRefused,
  type AccountingSystem,
  type AccountingTenant,
  AccountingUnavailable,
  type Contact,
  type LedgerAccount,
} from './port';

export type HttpClientOptions = Readonly<{
  baseUrl: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
}>;

type Call = { method: string; path: string; body?: unknown; idempotencyKey?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The accounting system over HTTP. Retries 5xx answers, network errors and timeouts with
 * exponential backoff; a 4xx is a refusal and is never retried. Creates carry an Idempotency-Key,
 * so a retry never makes a second document.
 */
export const httpAccountingSystem = (options: HttpClientOptions): AccountingSystem => {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 200;

  const request = async <T>({ method, path, body, idempotencyKey }: Call): Promise<T> => {
    let lastProblem = 'no answer';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      let response: globalThis.Response;
      try {
        response = await fetch(`${options.baseUrl}${path}`, {
          method,
          headers: {
            'Content-Type': 'application/json',
            ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        lastProblem = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'could not connect';
        continue;
      }
      const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string; field?: string } } | null;
      if (response.status >= 500) {
        lastProblem = payload?.error?.message ?? `status ${response.status}`;
        continue;
      }
      if (response.status >= 400) {
        throw new AccountingRefused(payload?.error?.code ?? 'refused', payload?.error?.message ?? `status ${response.status}`, payload?.error?.field);
      }
      return payload as T;
    }
    throw new AccountingUnavailable(`The accounting system is unavailable: ${lastProblem}.`);
  };

  const tenant = (tenantId: string): AccountingTenant => {
    const base = `/tenants/${encodeURIComponent(tenantId)}`;
    const firstContact = async (query: string) =>
      (await request<{ contacts: Contact[] }>({ method: 'GET', path: `${base}/contacts?${query}` })).contacts[0] ?? null;
    return {
      tenantId,
      findContactByNumber: (contactNumber) => firstContact(`contactNumber=${encodeURIComponent(contactNumber)}`),
      findContactByName: (name) => firstContact(`name=${encodeURIComponent(name)}`),
      createContact: (contact, idempotencyKey) => request({ method: 'POST', path: `${base}/contacts`, body: contact, idempotencyKey }),
      createInvoice: (invoice, idempotencyKey) => request({ method: 'POST', path: `${base}/invoices`, body: invoice, idempotencyKey }),
      getInvoice: (id) => request({ method: 'GET', path: `${base}/invoices/${encodeURIComponent(id)}` }),
      updateInvoiceLines: (id, lines) => request({ method: 'PUT', path: `${base}/invoices/${encodeURIComponent(id)}/lines`, body: { lines } }),
      approveInvoice: (id) => request({ method: 'POST', path: `${base}/invoices/${encodeURIComponent(id)}/approve`, body: {} }),
      voidInvoice: (id) => request({ method: 'POST', path: `${base}/invoices/${encodeURIComponent(id)}/void`, body: {} }),
      deleteInvoice: (id) => request({ method: 'POST', path: `${base}/invoices/${encodeURIComponent(id)}/delete`, body: {} }),
      recordPayment: (invoiceId, amount, date, idempotencyKey) =>
        request({ method: 'POST', path: `${base}/invoices/${encodeURIComponent(invoiceId)}/payments`, body: { amount, date }, idempotencyKey }),
      createCreditNote: (creditNote, idempotencyKey) => request({ method: 'POST', path: `${base}/credit_notes`, body: creditNote, idempotencyKey }),
      allocateCreditNote: (creditNoteId, invoiceId, amount, idempotencyKey) =>
        request({ method: 'POST', path: `${base}/credit_notes/${encodeURIComponent(creditNoteId)}/allocations`, body: { invoiceId, amount }, idempotencyKey }),
      listUpdatedSince: (since) => request({ method: 'GET', path: `${base}/changes?since=${encodeURIComponent(since)}` }),
    };
  };

  return {
    connect: (label, idempotencyKey) =>
      request<{ tenantId: string; name: string; accounts: LedgerAccount[] }>({ method: 'POST', path: '/connections', body: { label }, idempotencyKey }),
    tenant,
  };
};
