import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Answer, errorAnswer, remembered } from './answers';
import type { Ledger } from './ledger';

const INVOICES = /^\/tenants\/([A-Za-z0-9_-]+)\/invoices$/;
/** Express's JSON body limit on this server ('1mb'). */
const LIMIT_BYTES = 1024 * 1024;
/** body-parser's strict mode: the first character that is not JSON whitespace opens an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*[{[]/;

export type InvoiceFastPathDeps = Readonly<{
  ledger: Ledger;
  /** Whether a fault is set up (the fault middleware then sees every call). */
  faultsPending: () => boolean;
  createInvoice: (tenantId: string, body: unknown) => unknown;
}>;

const answer = (res: ServerResponse, { status, body }: Answer): void => {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
};

const parsedBody = (chunks: Buffer[]): unknown => {
  let text = Buffer.concat(chunks).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // the byte order mark body-parser's decoder drops
  if (!STRICT_JSON.test(text)) throw new SyntaxError('not a JSON object or array');
  return JSON.parse(text) as unknown;
};

/**
 * `POST /tenants/{tenant}/invoices`, the call every pushed invoice makes, answered without
 * Express's router and body parser: the same ledger work, idempotency and answers (an unparsable
 * body 500 `internal`, as the error handler answers body-parser's error). Only the plain form of
 * the call is taken here (that exact path, `Content-Type: application/json`, a `Content-Length` within
 * the limit, no `Content-Encoding`, no fault set up); the handler answers false for anything
 * else, which Express then serves.
 */
export const invoiceFastPath =
  ({ ledger, faultsPending, createInvoice }: InvoiceFastPathDeps) =>
  (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST') return false;
    const tenantId = INVOICES.exec(req.url ?? '')?.[1];
    const { headers } = req;
    const length = Number(headers['content-length']);
    if (
      tenantId === undefined ||
      headers['content-type'] !== 'application/json' ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      !(length > 0 && length <= LIMIT_BYTES) ||
      faultsPending()
    ) {
      return false;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const call = async (): Promise<Answer> => {
        const body = parsedBody(chunks);
        ledger.requireTenant(tenantId);
        const key = headers['idempotency-key'] as string | undefined;
        return remembered(ledger, { tenantId, key, method: 'POST', path: req.url!, body }, 201, () => createInvoice(tenantId, body));
      };
      call().then(
        (done) => answer(res, done),
        (error: unknown) => answer(res, errorAnswer(error)),
      );
    });
    return true;
  };
