export type StoredResponse = Readonly<{ status: number; headers?: Record<string, string>; body: unknown }>;

export type BeginResult =
  | { kind: 'started'; token: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

/**
 * Idempotency records per scope (an API key) and client key: a lock while the first request runs,
 * then its stored success for the lifetime. Only the lock's holder may complete, renew or release it.
 * A lock records its owner (the process instance that took it), so locks left by a process that died
 * can be told from live ones.
 */
export interface IdempotencyStore {
  /** How long a lock holds without a renewal; a running request renews it well within this. */
  readonly leaseMs: number;
  begin(scope: string, key: string, fingerprint: string, nowMs: number): Promise<BeginResult>;
  /** Pushes a running request's lock a lease forward from `nowMs`. */
  renew(scope: string, key: string, token: string, nowMs: number): Promise<void>;
  complete(scope: string, key: string, token: string, response: StoredResponse, nowMs: number): Promise<void>;
  release(scope: string, key: string, token: string): Promise<void>;
  /** Drops every record of the scope, locks included (a sandbox reset: its keys may be used again). */
  forget(scope: string): Promise<void>;
  /**
   * Releases every lock another instance took; only for a process that knows it is the only one on
   * the store (the embedded profile at start, under its data directory lock). Returns how many.
   */
  releaseAbandoned(): Promise<number>;
  close(): Promise<void>;
}

export type IdempotencyOptions = Readonly<{
  /** How long a success is kept (the API document: 24 hours). */
  lifetimeMs: number;
  /** How long a running request's lock holds without a renewal (so, if its process died). */
  leaseMs: number;
  /** This process instance; recorded on every lock it takes (a fresh id when not given). */
  owner?: string;
}>;

export const DEFAULT_IDEMPOTENCY: IdempotencyOptions = { lifetimeMs: 24 * 60 * 60 * 1000, leaseMs: 60_000 };
