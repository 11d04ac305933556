import { DomainError } from './domain-error';

/** The one refusal of a reused Idempotency-Key, whether the key's stored answer or the object it made finds the mismatch. */
export const idempotencyConflict = (): DomainError =>
  new DomainError('conflict', 'idempotency_conflict', 'This Idempotency-Key was used with a different request.');

/** A recorded fingerprint (absent on objects made before fingerprints were kept) must be this request's. */
export const requireSameRequest = (recorded: string | undefined, fingerprint: string): void => {
  if (recorded !== undefined && recorded !== fingerprint) throw idempotencyConflict();
};
