import { Agent as HttpAgent, type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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

/** Connections open to the accounting system at most, kept alive between calls; further calls queue for one. */
const MAX_SOCKETS = 16;

type Call = { method: string; path: string; body?: unknown; idempotencyKey?: string };

type Answer = { status: number; payload: { error?: { code?: string; message?: string; field?: string } } | null };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** No answer (status and whole body) within the call's time limit. */
class CallTimedOut extends Error {}

/**
 * The accounting system over HTTP. Retries 5xx answers, network errors and timeouts with
 * exponential backoff; a 4xx is a refusal and is never retried. Creates carry an Idempotency-Key,
 * so a retry never makes a second document. Calls go over `node:http(s)` with a keep-alive agent:
 * a bounded pool of reused connections, cheaper on the caller's loop than `fetch` (docs/history/performance.md).
 */
export const httpAccountingSystem = (options: HttpClientOptions): AccountingSystem => {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 200;
  const base = new URL(options.baseUrl);
  const secure = base.protocol === 'https:';
  const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS };
  const agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const send = secure ? httpsRequest : httpRequest;
  const basePath = base.pathname.replace(/\/$/, '');
  const hostname = base.hostname.replace(/^\[(.*)\]$/, '$1'); // an IPv6 literal without its brackets

  /** One attempt: the status and the JSON body (null when it is not JSON); throws when no answer comes. */
  const callOnce = ({ method, path, body, idempotencyKey }: Call): Promise<Answer> =>
    new Promise<Answer>((resolve, reject) => {
      const json = body !== undefined ? JSON.stringify(body) : undefined;
      const headers: OutgoingHttpHeaders = { 'Content-Type': 'application/json' };
      if (json !== undefined) headers['Content-Length'] = Buffer.byteLength(json);
      if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      const request = send(
        { protocol: base.protocol, hostname, port: base.port, path: `${basePath}${path}`, method, headers, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', fail);
          response.on('close', () => {
            if (!response.complete) fail(new Error('The answer was cut short.'));
          });
          response.on('end', () => {
            clearTimeout(timer);
            let payload: Answer['payload'] = null;
            try {
              payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['payload'];
            } catch {
              // Not JSON (a proxy's error page): the status alone decides.
            }
            resolve({ status: response.statusCode ?? 0, payload });
          });
        },
      );
      // The limit covers the whole call: waiting for a connection, the answer and its body.
      const timer = setTimeout(() => {
        reject(new CallTimedOut());
        request.destroy();
      }, timeoutMs);
      request.on('error', fail);
      request.end(json);
    });

  const request = async <T>(call: Call): Promise<T> => {
    let lastProblem = 'no answer';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      let answer: Answer;
      try {
        answer = await callOnce(call);
      } catch (error) {
        lastProblem = error instanceof CallTimedOut ? `no answer within ${timeoutMs} ms` : 'could not connect';
        continue;
      }
      const { status, payload } = answer;
      if (status >= 500) {
        lastProblem = payload?.error?.message ?? `status ${status}`;
        continue;
      }
      if (status >= 400) {
        throw new AccountingRefused(payload?.error?.code ?? 'refused', payload?.error?.message ?? `status ${status}`, payload?.error?.field);
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
