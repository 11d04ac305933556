export type StoredResponse = Readonly<{ status: number; headers?: Record<string, string>; body: unknown }>;

export type BeginResult =
  | { kind: 'started'; token: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

/**
 * Idempotency records per scope (an API key) and client key: a lock while the first request runs,
 * then its stored success for the lifetime. Only the lock's holder may complete or release it.
 */
export interface IdempotencyStore {
  begin(scope: string, key: string, fingerprint: string, nowMs: number): Promise<BeginResult>;
  complete(scope: string, key: string, token: string, response: StoredResponse, nowMs: number): Promise<void>;
  release(scope: string, key: string, token: string): Promise<void>;
  /** Drops every record of the scope, locks included (a sandbox reset: its keys may be used again). */
  forget(scope: string): Promise<void>;
  close(): Promise<void>;
}

export type IdempotencyOptions = Readonly<{
  /** How long a success is kept (the API document: 24 hours). */
  lifetimeMs: number;
  /** How long a running request's lock holds if its process died. */
  leaseMs: number;
}>;

export const DEFAULT_IDEMPOTENCY: IdempotencyOptions = { lifetimeMs: 24 * 60 * 60 * 1000, leaseMs: 60_000 };
