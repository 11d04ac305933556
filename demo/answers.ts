import { hash } from 'node:crypto';
import { z } from 'zod';
import { type Ledger, LedgerRefusal } from './ledger';

/** A call's outcome: the status and the JSON body. */
export type Answer = Readonly<{ status: number; body: unknown }>;

/** What a failed call answers: a refusal its 4xx, an invalid body 400, anything else 500. */
export const errorAnswer = (error: unknown): Answer => {
  if (error instanceof LedgerRefusal) {
    return { status: error.status, body: { error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } } };
  }
  if (error instanceof z.ZodError) {
    return { status: 400, body: { error: { code: 'validation_failed', message: error.issues[0]?.message ?? 'Invalid request.' } } };
  }
  return { status: 500, body: { error: { code: 'internal', message: 'The demonstration accounting system failed.' } } };
};

/** A create call as the idempotency check sees it (`tenantId` '-' outside a tenant). */
export type CreateCall = Readonly<{ tenantId: string; key: string | undefined; method: string; path: string; body: unknown }>;

/**
 * Runs a create once per Idempotency-Key: the same key and body return the first answer again (a
 * different body under the key is refused by the ledger). One transaction, settled once durable.
 */
export const remembered = async (ledger: Ledger, call: CreateCall, status: number, work: () => unknown): Promise<Answer> => {
  const { tenantId, key } = call;
  if (!key) throw new LedgerRefusal(400, 'idempotency_key_required', 'Send an Idempotency-Key with every create.');
  const fingerprint = hash('sha256', `${call.method} ${call.path}\n${JSON.stringify(call.body)}`, 'hex');
  return ledger.transaction(() => {
    const earlier = ledger.remembered(tenantId, key, fingerprint);
    if (earlier) return earlier;
    const body = work();
    ledger.remember(tenantId, key, fingerprint, status, body);
    return { status, body };
  });
};
